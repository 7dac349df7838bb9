/* The reference for bench/mpi-speed.py: what formatbench's raw plugin does
 * under MPI, as bare POSIX calls between the same barriers, timed the way
 * formatbench times a phase (docs/methodology.md, "MPI").
 *
 *   mpirun -np N mpi_bare LAYOUT COUNT DIR REPEAT
 *
 * LAYOUT is per_rank (rank r writes DIR/bare.r) or shared (rank r writes
 * its slice of DIR/bare at r x COUNT x 8 bytes). Each of REPEAT rounds:
 * rank 0 (per_rank: every rank) removes the previous file; barrier; write
 * phase (open with O_CREAT, and O_TRUNC for per_rank; lseek to the slice;
 * write() of COUNT doubles; close); barrier; read phase (open, lseek,
 * read() of the slice, close). A phase's time is the last rank's end minus
 * the first rank's start (MPI_Wtime: one node, one clock). Rank 0 prints one
 * JSON line: {"write_s": [...], "read_s": [...]}.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void die(const char* what, const char* path) {
    perror(what);
    fprintf(stderr, "mpi_bare: %s failed on %s\n", what, path);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Aggregate time of a phase that ran from t0 to t1 on this rank. */
static double aggregate(double t0, double t1) {
    double first = 0, last = 0;
    MPI_Allreduce(&t0, &first, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&t1, &last, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return last - first;
}

static void all_io(int write_it, int fd, char* p, size_t n, const char* path) {
    while (n > 0) {
        ssize_t k = write_it ? write(fd, p, n) : read(fd, p, n);
        if (k <= 0) die(write_it ? "write" : "read", path);
        p += k;
        n -= (size_t)k;
    }
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 5) {
        if (rank == 0) fprintf(stderr, "usage: mpi_bare per_rank|shared COUNT DIR REPEAT\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const int shared = strcmp(argv[1], "shared") == 0;
    const size_t count = strtoull(argv[2], NULL, 10);
    const int repeat = atoi(argv[4]);
    char path[4096];
    if (shared)
        snprintf(path, sizeof path, "%s/bare", argv[3]);
    else
        snprintf(path, sizeof path, "%s/bare.%d", argv[3], rank);
    const size_t bytes = count * sizeof(double);
    const off_t offset = shared ? (off_t)rank * (off_t)bytes : 0;
    double* data = malloc(bytes);
    double* back = malloc(bytes);
    if (!data || !back) die("malloc", path);
    for (size_t i = 0; i < count; ++i)
        data[i] = (double)(rank * count + i) * 0.5;
    memset(back, 0, bytes);

    if (rank == 0) printf("{\"write_s\": [");
    double* reads = malloc(sizeof(double) * (size_t)repeat);
    for (int r = 0; r < repeat; ++r) {
        if (!shared || rank == 0) unlink(path);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (shared ? 0 : O_TRUNC), 0644);
        if (fd < 0) die("open", path);
        if (lseek(fd, offset, SEEK_SET) < 0) die("lseek", path);
        all_io(1, fd, (char*)data, bytes, path);
        if (close(fd) != 0) die("close", path);
        const double w = aggregate(t0, MPI_Wtime());

        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) die("open", path);
        if (lseek(fd, offset, SEEK_SET) < 0) die("lseek", path);
        all_io(0, fd, (char*)back, bytes, path);
        if (close(fd) != 0) die("close", path);
        reads[r] = aggregate(t0, MPI_Wtime());
        if (memcmp(data, back, bytes) != 0) die("verify", path);
        if (rank == 0) printf("%s%.9f", r ? ", " : "", w);
    }
    if (rank == 0) {
        printf("], \"read_s\": [");
        for (int r = 0; r < repeat; ++r)
            printf("%s%.9f", r ? ", " : "", reads[r]);
        printf("]}\n");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (!shared || rank == 0) unlink(path);
    free(reads);
    free(data);
    free(back);
    MPI_Finalize();
    return 0;
}
