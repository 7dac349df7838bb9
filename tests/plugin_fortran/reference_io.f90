! The independent side of tests/plugin_fortran: a standalone gfortran
! program doing the reference program's I/O statements with the same
! open/write/read as a user's program would, so the test can compare the
! plugin's files with gfortran's byte for byte and read gfortran's files
! through the plugin.
!
!   reference_io write FORM ACCESS FORMAT DTYPE N PER RAW_IN FILE_OUT
!   reference_io read  FORM ACCESS FORMAT DTYPE N PER FILE_IN RAW_OUT
!
! write: reads N values of DTYPE (f64 f32 i64 i32) from RAW_IN (native
! bytes) and writes them to FILE_OUT with form FORM (formatted or
! unformatted), access ACCESS (sequential or stream) and format FORMAT (a
! format in parentheses, or * for list-directed; ignored when unformatted),
! in one statement (PER 0) or in statements of PER values. read: the
! reverse, into RAW_OUT. Errors stop the program with a runtime message.
! The statements are in reference_kind.f90.in, one module per dtype.
program reference_io
   use, intrinsic :: iso_fortran_env, only: int64
   use reference_f64, only: run_f64 => run
   use reference_f32, only: run_f32 => run
   use reference_i64, only: run_i64 => run
   use reference_i32, only: run_i32 => run
   implicit none
   character(len=4096) :: op, form, access, fmt, dtype, a, infile, outfile
   integer(int64) :: n, per

   call get_command_argument(1, op)
   call get_command_argument(2, form)
   call get_command_argument(3, access)
   call get_command_argument(4, fmt)
   call get_command_argument(5, dtype)
   call get_command_argument(6, a)
   read (a, *) n
   call get_command_argument(7, a)
   read (a, *) per
   call get_command_argument(8, infile)
   call get_command_argument(9, outfile)
   select case (trim(dtype))
   case ('f64')
      call run_f64(trim(op), trim(form), trim(access), trim(fmt), n, per, trim(infile), trim(outfile))
   case ('f32')
      call run_f32(trim(op), trim(form), trim(access), trim(fmt), n, per, trim(infile), trim(outfile))
   case ('i64')
      call run_i64(trim(op), trim(form), trim(access), trim(fmt), n, per, trim(infile), trim(outfile))
   case ('i32')
      call run_i32(trim(op), trim(form), trim(access), trim(fmt), n, per, trim(infile), trim(outfile))
   case default
      error stop 'reference_io: dtype must be f64, f32, i64 or i32'
   end select

end program reference_io
