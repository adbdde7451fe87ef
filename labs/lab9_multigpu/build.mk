# Lab 9 links MPI (its processes and the host exchange: common/harness/ranks.c) and NCCL. Where either is
# missing lab 9 alone is skipped, with one line on stderr (stdout stays the commands'), and the rest
# of the course builds.
# NCCL: the CUDA toolkit's or the system's; else the one under NCCL_HOME (include/, lib/), which
# is found for you where Python has the nvidia-nccl wheel (it has that layout). The library is
# linked by its soname, as the wheel ships no libnccl.so link.
NCCL_SYSTEM := $(wildcard $(CUDA_HOME)/include/nccl.h /usr/include/nccl.h /usr/local/include/nccl.h)
ifeq ($(origin NCCL_HOME),undefined)
NCCL_HOME := $(if $(NCCL_SYSTEM),,$(shell python3 -c 'import nvidia.nccl as m; print(m.__path__[0])' 2>/dev/null))
endif
HAVE_NCCL := $(if $(or $(NCCL_SYSTEM),$(wildcard $(NCCL_HOME)/include/nccl.h)),1)
ifeq ($(HAVE_MPI),)
$(shell echo "lab 9 skipped: no MPI here (Debian: libopenmpi-dev openmpi-bin)" >&2)
LAB_NAMES := $(filter-out lab9_multigpu,$(LAB_NAMES))
else ifeq ($(HAVE_NCCL),)
$(shell echo "lab 9 skipped: no NCCL here (the CUDA toolkit's, NCCL_HOME, or Debian: libnccl-dev)" >&2)
LAB_NAMES := $(filter-out lab9_multigpu,$(LAB_NAMES))
else
NVFLAGS_lab9_multigpu = $(if $(NCCL_HOME),-I$(NCCL_HOME)/include)
build/labs/lab9_multigpu/%.o build/solutions/lab9_multigpu/%.o: NVFLAGS += $(NVFLAGS_lab9_multigpu)
build/archs/labs/lab9_multigpu/%.o build/archs/solutions/lab9_multigpu/%.o: NVFLAGS_BASE += $(NVFLAGS_lab9_multigpu)
LDLIBS_lab9_multigpu = $(filter -L% -l%,$(MPI_LIBS)) $(if $(NCCL_HOME),-L$(NCCL_HOME)/lib -Xlinker -rpath=$(NCCL_HOME)/lib) -l:libnccl.so.2
COMMON_OBJS_lab9_multigpu = $(filter-out build/common/harness/ranks.o,$(COMMON_OBJS)) build/common/harness/ranks-mpi.o
endif
