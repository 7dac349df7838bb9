! The fortran plugin's I/O, called from C++ (fortran_io.h) through bind(C):
! every open, inquire and close, the record markers' reads and the format
! checks are statements here; the typed writes and reads are in the modules
! fb_fortran_f64, _f32, _i64 and _i32, which Meson makes from
! fortran_kind.f90.in. All run in the gfortran runtime. Every statement carries
! iostat= and iomsg=, so the runtime returns its errors instead of stopping
! the process; each function returns the iostat (0: success) and on failure
! copies iomsg, NUL-terminated, into the caller's buffer. Units come from
! newunit= and live in the caller's stream, so streams are independent.

module fb_fortran_io
   use, intrinsic :: iso_c_binding, only: c_char, c_int, c_int8_t, c_int32_t, c_int64_t, c_ptr, c_null_char
   use, intrinsic :: iso_fortran_env, only: iostat_end, iostat_eor
   use fb_fortran_f64, only: put_f64 => put, get_f64 => get, check_f64 => check_format
   use fb_fortran_f32, only: put_f32 => put, get_f32 => get, check_f32 => check_format
   use fb_fortran_i64, only: put_i64 => put, get_i64 => get, check_i64 => check_format
   use fb_fortran_i32, only: put_i32 => put, get_i32 => get, check_i32 => check_format
   implicit none
   private

   ! The dtype codes of formatbench/plugin.h (fb_dtype).
   integer(c_int), parameter :: dtype_f64 = 1, dtype_f32 = 2, dtype_i64 = 3, dtype_i32 = 4
   ! Room for the runtime's messages (a format error spans three lines).
   integer, parameter :: message_length = 1024

contains

   ! Opens path on a new unit: for writing (status "replace", which creates
   ! or truncates; the host has removed any old file) or for reading (status
   ! "old"); formatted or unformatted, stream or sequential access.
   integer(c_int) function fbf_open(path, path_len, writing, formatted, stream, unit, msg, msg_len) &
      bind(C, name="fbf_open")
      integer(c_int64_t), value :: path_len, msg_len
      character(kind=c_char), intent(in) :: path(path_len)
      integer(c_int), value :: writing, formatted, stream
      integer(c_int), intent(out) :: unit
      character(kind=c_char), intent(inout) :: msg(msg_len)
      character(len=path_len) :: file
      character(len=message_length) :: m
      character(len=11) :: form, access
      integer :: u, ios

      file = text(path, path_len)
      form = merge('formatted  ', 'unformatted', formatted /= 0)
      access = merge('stream    ', 'sequential', stream /= 0)
      u = -1
      if (writing /= 0) then
         open (newunit=u, file=file, status='replace', action='write', form=trim(form), &
               access=trim(access), iostat=ios, iomsg=m)
      else
         open (newunit=u, file=file, status='old', action='read', form=trim(form), &
               access=trim(access), iostat=ios, iomsg=m)
      end if
      unit = u
      fbf_open = answer(ios, m, msg, msg_len)
   end function fbf_open

   ! One write statement of head(1:nhead) then data(1:n) of the dtype, in the
   ! mode of fb_fortran_modes; fmt is the format of mode_explicit.
   integer(c_int) function fbf_write(unit, dtype, mode, fmt, fmt_len, head, nhead, data, n, msg, msg_len) &
      bind(C, name="fbf_write")
      integer(c_int), value :: unit, dtype, mode
      integer(c_int64_t), value :: fmt_len, nhead, n, msg_len
      character(kind=c_char), intent(in) :: fmt(fmt_len)
      type(c_ptr), value :: head, data
      character(kind=c_char), intent(inout) :: msg(msg_len)
      character(len=fmt_len) :: f
      character(len=message_length) :: m
      integer :: ios

      f = text(fmt, fmt_len)
      select case (dtype)
      case (dtype_f64)
         call put_f64(unit, mode, f, head, nhead, data, n, ios, m)
      case (dtype_f32)
         call put_f32(unit, mode, f, head, nhead, data, n, ios, m)
      case (dtype_i64)
         call put_i64(unit, mode, f, head, nhead, data, n, ios, m)
      case (dtype_i32)
         call put_i32(unit, mode, f, head, nhead, data, n, ios, m)
      case default
         ios = -100
         m = 'unsupported dtype'
      end select
      fbf_write = answer(ios, m, msg, msg_len)
   end function fbf_write

   ! One read statement of data(1:n) of the dtype.
   integer(c_int) function fbf_read(unit, dtype, mode, fmt, fmt_len, data, n, msg, msg_len) &
      bind(C, name="fbf_read")
      integer(c_int), value :: unit, dtype, mode
      integer(c_int64_t), value :: fmt_len, n, msg_len
      character(kind=c_char), intent(in) :: fmt(fmt_len)
      type(c_ptr), value :: data
      character(kind=c_char), intent(inout) :: msg(msg_len)
      character(len=fmt_len) :: f
      character(len=message_length) :: m
      integer :: ios

      f = text(fmt, fmt_len)
      select case (dtype)
      case (dtype_f64)
         call get_f64(unit, mode, f, data, n, ios, m)
      case (dtype_f32)
         call get_f32(unit, mode, f, data, n, ios, m)
      case (dtype_i64)
         call get_i64(unit, mode, f, data, n, ios, m)
      case (dtype_i32)
         call get_i32(unit, mode, f, data, n, ios, m)
      case default
         ios = -100
         m = 'unsupported dtype'
      end select
      fbf_read = answer(ios, m, msg, msg_len)
   end function fbf_read

   ! One unformatted read of n bytes (a unit opened with stream access): the
   ! record markers and payload of a sequential file.
   integer(c_int) function fbf_read_bytes(unit, data, n, msg, msg_len) bind(C, name="fbf_read_bytes")
      integer(c_int), value :: unit
      integer(c_int64_t), value :: n, msg_len
      integer(c_int8_t), intent(inout) :: data(n)
      character(kind=c_char), intent(inout) :: msg(msg_len)
      character(len=message_length) :: m
      integer :: ios

      read (unit, iostat=ios, iomsg=m) data
      fbf_read_bytes = answer(ios, m, msg, msg_len)
   end function fbf_read_bytes

   ! The file size as the runtime sees it (inquire size=), buffered output
   ! included; -1 when it cannot tell.
   integer(c_int) function fbf_size(unit, size, msg, msg_len) bind(C, name="fbf_size")
      integer(c_int), value :: unit
      integer(c_int64_t), intent(out) :: size
      integer(c_int64_t), value :: msg_len
      character(kind=c_char), intent(inout) :: msg(msg_len)
      character(len=message_length) :: m
      integer(c_int64_t) :: s
      integer :: ios

      s = -1
      inquire (unit=unit, size=s, iostat=ios, iomsg=m)
      size = s
      fbf_size = answer(ios, m, msg, msg_len)
   end function fbf_size

   integer(c_int) function fbf_close(unit, msg, msg_len) bind(C, name="fbf_close")
      integer(c_int), value :: unit
      integer(c_int64_t), value :: msg_len
      character(kind=c_char), intent(inout) :: msg(msg_len)
      character(len=message_length) :: m
      integer :: ios

      close (unit, iostat=ios, iomsg=m)
      fbf_close = answer(ios, m, msg, msg_len)
   end function fbf_close

   ! Whether fmt writes (reading = 0) or reads (reading /= 0) values of the
   ! dtype: the runtime runs it on an internal file (see check_format).
   ! Returns 0 for a usable format.
   integer(c_int) function fbf_check_format(dtype, reading, fmt, fmt_len, msg, msg_len) &
      bind(C, name="fbf_check_format")
      integer(c_int), value :: dtype, reading
      integer(c_int64_t), value :: fmt_len, msg_len
      character(kind=c_char), intent(in) :: fmt(fmt_len)
      character(kind=c_char), intent(inout) :: msg(msg_len)
      character(len=fmt_len) :: f
      character(len=message_length) :: m
      integer :: ios

      f = text(fmt, fmt_len)
      select case (dtype)
      case (dtype_f64)
         call check_f64(reading /= 0, f, ios, m)
      case (dtype_f32)
         call check_f32(reading /= 0, f, ios, m)
      case (dtype_i64)
         call check_i64(reading /= 0, f, ios, m)
      case (dtype_i32)
         call check_i32(reading /= 0, f, ios, m)
      case default
         ios = -100
         m = 'unsupported dtype'
      end select
      if (ios == iostat_eor) ios = 0 ! a record longer than the internal file's: a valid format
      fbf_check_format = answer(ios, m, msg, msg_len)
   end function fbf_check_format

   ! The runtime's iostat values for end of file and end of record.
   subroutine fbf_iostat_codes(end_of_file, end_of_record) bind(C, name="fbf_iostat_codes")
      integer(c_int), intent(out) :: end_of_file, end_of_record
      end_of_file = iostat_end
      end_of_record = iostat_eor
   end subroutine fbf_iostat_codes

   ! A C string of n characters as a Fortran string.
   pure function text(chars, n) result(s)
      integer(c_int64_t), intent(in) :: n
      character(kind=c_char), intent(in) :: chars(n)
      character(len=n) :: s
      integer(c_int64_t) :: i
      do i = 1, n
         s(i:i) = chars(i)
      end do
   end function text

   ! Returns ios; on failure copies the message (or, if the runtime gave
   ! none, the iostat) into msg, NUL-terminated.
   integer(c_int) function answer(ios, m, msg, msg_len)
      integer, intent(in) :: ios
      character(len=*), intent(in) :: m
      integer(c_int64_t), intent(in) :: msg_len
      character(kind=c_char), intent(inout) :: msg(msg_len)
      character(len=message_length) :: t
      integer(c_int64_t) :: i, n

      answer = int(ios, c_int)
      if (ios == 0 .or. msg_len < 1) return
      t = m
      if (len_trim(t) == 0) write (t, '(a, i0)') 'iostat ', ios
      n = min(int(len_trim(t), c_int64_t), msg_len - 1)
      do i = 1, n
         msg(i) = t(i:i)
      end do
      msg(n + 1) = c_null_char
   end function answer

end module fb_fortran_io
