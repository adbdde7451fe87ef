# Lab 9 links MPI (its processes and the host exchange: common/ranks.c) and NCCL (the CUDA
# toolkit's). Without MPI it is skipped and the rest of the course builds. needs: mpi
ifeq ($(HAVE_MPI),)
$(info lab 9 skipped: no MPI here (Debian: libopenmpi-dev openmpi-bin))
LAB_NAMES := $(filter-out lab9_multigpu,$(LAB_NAMES))
else
LDLIBS_lab9_multigpu = $(filter -L% -l%,$(MPI_LIBS)) -lnccl
COMMON_OBJS_lab9_multigpu = $(filter-out build/common/ranks.o,$(COMMON_OBJS)) build/common/ranks-mpi.o
endif
