/* The fortran plugin's Fortran procedures (fortran_io.f90) as C sees them.
 * Each returns the Fortran iostat of its statement: 0 on success, and on
 * failure the runtime's message, NUL-terminated, in msg (msg_len bytes).
 * Lengths are int64_t (Fortran integer(c_int64_t), passed by value). */
#ifndef FB_FORTRAN_IO_H
#define FB_FORTRAN_IO_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Statement modes (fb_fortran_modes). */
#define FBF_MODE_UNFORMATTED 0
#define FBF_MODE_LIST_DIRECTED 1
#define FBF_MODE_EXPLICIT 2

/* Opens path (path_len bytes, no NUL needed) on a new unit: writing with
 * status "replace", else reading with status "old". */
int fbf_open(const char* path, int64_t path_len, int writing, int formatted, int stream, int* unit, char* msg,
             int64_t msg_len);
/* One write statement of head[0..nhead) then data[0..n) of dtype (fb_dtype
 * f64, f32, i64 or i32); n >= 1, nhead may be 0 (head then unused). */
int fbf_write(int unit, int dtype, int mode, const char* fmt, int64_t fmt_len, const void* head,
              int64_t nhead, const void* data, int64_t n, char* msg, int64_t msg_len);
/* One read statement of data[0..n), n >= 1. */
int fbf_read(int unit, int dtype, int mode, const char* fmt, int64_t fmt_len, void* data, int64_t n,
             char* msg, int64_t msg_len);
/* One unformatted read of n >= 1 bytes (stream access). */
int fbf_read_bytes(int unit, void* data, int64_t n, char* msg, int64_t msg_len);
/* The runtime's idea of the file size (buffered output included), -1 if unknown. */
int fbf_size(int unit, int64_t* size, char* msg, int64_t msg_len);
int fbf_close(int unit, char* msg, int64_t msg_len);
/* 0 when fmt writes (reading == 0) or reads values of dtype. */
int fbf_check_format(int dtype, int reading, const char* fmt, int64_t fmt_len, char* msg, int64_t msg_len);
/* iso_fortran_env's iostat_end and iostat_eor. */
void fbf_iostat_codes(int* end_of_file, int* end_of_record);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* FB_FORTRAN_IO_H */
