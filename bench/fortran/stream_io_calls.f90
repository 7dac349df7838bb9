! The reference program's I/O statements (stream_io_n.f90) as bind(C)
! subroutines, for bench/speed_fortran.cpp: the bare reference of the
! fortran plugin, in the same process, on the same buffers, timed the same
! way (open to close). The statements are the reference program's own; the
! reads also close their unit, as the plugin's do.
module stream_io_calls
   use, intrinsic :: iso_c_binding, only: c_char, c_double, c_int64_t
   implicit none
   private

contains

   subroutine ref_write_f016(path, path_len, x, n) bind(C, name="ref_write_f016")
      integer(c_int64_t), value :: path_len, n
      character(kind=c_char), intent(in) :: path(path_len)
      real(c_double), intent(in) :: x(n)
      integer :: iunit

      open (newunit=iunit, file=name(path, path_len), action="write", status="replace")
      write (iunit, "(f0.16)") x
      close (iunit)
   end subroutine ref_write_f016

   subroutine ref_read_list(path, path_len, x, n) bind(C, name="ref_read_list")
      integer(c_int64_t), value :: path_len, n
      character(kind=c_char), intent(in) :: path(path_len)
      real(c_double), intent(out) :: x(n)
      integer :: iunit

      open (newunit=iunit, file=name(path, path_len), action="read", status="old")
      read (iunit, *) x
      close (iunit)
   end subroutine ref_read_list

   subroutine ref_write_stream(path, path_len, x, n) bind(C, name="ref_write_stream")
      integer(c_int64_t), value :: path_len, n
      character(kind=c_char), intent(in) :: path(path_len)
      real(c_double), intent(in) :: x(n)
      integer :: iunit

      open (newunit=iunit, file=name(path, path_len), action="write", status="replace", &
            form="unformatted", access="stream")
      write (iunit) x
      close (iunit)
   end subroutine ref_write_stream

   subroutine ref_read_stream(path, path_len, x, n) bind(C, name="ref_read_stream")
      integer(c_int64_t), value :: path_len, n
      character(kind=c_char), intent(in) :: path(path_len)
      real(c_double), intent(out) :: x(n)
      integer :: iunit

      open (newunit=iunit, file=name(path, path_len), action="read", status="old", &
            form="unformatted", access="stream")
      read (iunit) x
      close (iunit)
   end subroutine ref_read_stream

   pure function name(path, n) result(s)
      integer(c_int64_t), intent(in) :: n
      character(kind=c_char), intent(in) :: path(n)
      character(len=n) :: s
      integer(c_int64_t) :: i
      do i = 1, n
         s(i:i) = path(i)
      end do
   end function name

end module stream_io_calls
