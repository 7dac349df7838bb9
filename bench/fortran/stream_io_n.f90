! The reference program (../shared/reference/stream-io.f90) with three
! changes for benchmarking: n comes from the command line, the arrays are
! allocatable (n = 10^7 does not fit the default stack), and an optional
! second argument repeats the statements (default once), so that a caller
! can time the program past its first pass, whose first touches of fresh
! memory a long-running process does not pay. The I/O statements and timing
! are the reference program's own; its reads' units are closed after the
! clock stops, so that a second pass can open the files again. Prints one
! line per pass:
!   n formatted_write formatted_read unformatted_write unformatted_read  (seconds)
program stream_io_n
   use iso_fortran_env, only: wp => real64, int64
   implicit none

   integer             :: n, reps, rep
   character(len=32)   :: arg
   real(kind=wp), allocatable :: x(:), xchk(:)
   integer(kind=int64) :: iunit, irate, times(6)

   call get_command_argument(1, arg)
   read (arg, *) n
   reps = 1
   if (command_argument_count() >= 2) then
      call get_command_argument(2, arg)
      read (arg, *) reps
   end if
   allocate (x(n), xchk(n))
   call system_clock(count_rate=irate)
   call random_number(x)
   do rep = 1, reps
      call system_clock(count=times(1))

      open (newunit=iunit, file="temp.txt", action="write", status="replace")
      write (iunit, "(f0.16)") x
      close (iunit)
      call system_clock(count=times(2))
      open (newunit=iunit, file="temp.txt", action="read", status="old")
      read (iunit, *) xchk
      call system_clock(count=times(3))
      if (maxval(abs(x - xchk)) > 1e-15_wp) error stop "formatted round trip differs"
      close (iunit) ! untimed: the reference program leaves its reads open
      call system_clock(count=times(4))

      open (newunit=iunit, file="temp.bin", action="write", status="replace", &
            form="unformatted", access="stream")
      write (iunit) x
      close (iunit)
      call system_clock(count=times(5))
      open (newunit=iunit, file="temp.bin", action="read", status="old", &
            form="unformatted", access="stream")
      read (iunit) xchk
      call system_clock(count=times(6))
      if (any(x /= xchk)) error stop "unformatted round trip differs"
      close (iunit)

      print "(i0, 4(1x, es12.5))", n, [times(2:3) - times(1:2), times(5:6) - times(4:5)] / real(irate, wp)
   end do
end program stream_io_n
