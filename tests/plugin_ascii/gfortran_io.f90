! The reference tool of tests/plugin_ascii's gfortran tests, compiled by the
! test with gfortran when it runs:
!
!   gfortran_io read  DTYPE N TEXT RAW     list-directed read (read (u, *) x)
!                                          of N values of DTYPE (f64 f32 i64
!                                          i32) from TEXT, in one statement;
!                                          the values' bytes to RAW
!   gfortran_io write DTYPE N RAW TEXT FMT N values of DTYPE (f64 f32) from
!                                          RAW written to TEXT with format FMT
!                                          in one statement (* list-directed)
!
! A read that fails prints the runtime's message and exits with status 3.
program gfortran_io
   use, intrinsic :: iso_fortran_env, only: int32, int64, real32, real64
   implicit none
   character(len=4096) :: op, dtype, a, fin, fout, fmt
   integer(int64) :: n
   real(real64), allocatable :: d(:)
   real(real32), allocatable :: f(:)
   integer(int64), allocatable :: l(:)
   integer(int32), allocatable :: j(:)
   integer :: u, ios
   character(len=512) :: msg

   call get_command_argument(1, op)
   call get_command_argument(2, dtype)
   call get_command_argument(3, a)
   read (a, *) n
   call get_command_argument(4, fin)
   call get_command_argument(5, fout)
   call get_command_argument(6, fmt)
   allocate (d(n), f(n), l(n), j(n))
   if (op == 'read') then
      open (newunit=u, file=trim(fin), status='old', action='read')
      select case (trim(dtype))
      case ('f64')
         read (u, *, iostat=ios, iomsg=msg) d
      case ('f32')
         read (u, *, iostat=ios, iomsg=msg) f
      case ('i64')
         read (u, *, iostat=ios, iomsg=msg) l
      case default
         read (u, *, iostat=ios, iomsg=msg) j
      end select
      close (u)
      if (ios /= 0) then
         print '(a)', trim(msg)
         stop 3
      end if
      open (newunit=u, file=trim(fout), access='stream', form='unformatted', status='replace')
      select case (trim(dtype))
      case ('f64')
         write (u) d
      case ('f32')
         write (u) f
      case ('i64')
         write (u) l
      case default
         write (u) j
      end select
      close (u)
   else
      open (newunit=u, file=trim(fin), access='stream', form='unformatted', status='old', action='read')
      if (dtype == 'f64') then
         read (u) d
      else
         read (u) f
      end if
      close (u)
      open (newunit=u, file=trim(fout), status='replace', action='write')
      if (fmt == '*' .and. dtype == 'f64') then
         write (u, *) d
      else if (fmt == '*') then
         write (u, *) f
      else if (dtype == 'f64') then
         write (u, trim(fmt)) d
      else
         write (u, trim(fmt)) f
      end if
      close (u)
   end if
end program gfortran_io
