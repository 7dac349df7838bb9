! How a statement of the fortran plugin transfers its values: the modes
! fortran_kind.f90.in's statements take and fortran_io.h mirrors for C++.
module fb_fortran_modes
   implicit none
   public
   integer, parameter :: mode_unformatted = 0
   integer, parameter :: mode_list_directed = 1
   integer, parameter :: mode_explicit = 2
end module fb_fortran_modes
