# SPDX-License-Identifier: MIT
# stencil-labs. `make help` lists the targets. A lab is a folder labs/labN_name/ holding its
# definition (lab.c, the instructor's) and the student's kernels file (kernels.cu); the
# reference solution's kernels file is solutions/labN_name/kernels.cu. Everything below finds
# the labs by wildcard: a new lab needs no edit here (extra flags go in labs/labN_name/build.mk).
.DEFAULT_GOAL := all
SHELL := /bin/bash

NVCC ?= nvcc
CC := gcc
# The toolkit's folder as nvcc itself reports it: the nvcc on PATH may be a wrapper elsewhere.
ifeq ($(origin CUDA_HOME),undefined)
CUDA_HOME := $(or $(shell $(NVCC) --dryrun -c -x cu /dev/null -o /dev/null 2>&1 | sed -n 's/^\#\$$ TOP=//p'),/usr/local/cuda)
endif

# GPU targets. ARCH is a list: sm_XX builds machine code (SASS) for that architecture, compute_XX
# only its PTX (the driver compiles it for the GPU at start-up), e.g. ARCH="sm_80 sm_90" for a
# cluster of A100s and H100s. Default: the GPU in this machine (compute capability from
# nvidia-smi); without one, ARCH=portable: SASS for each code path of the kernels (sm_75, sm_80,
# sm_90: sm_86 and sm_89 run the sm_80 code) and PTX for GPUs newer than the toolkit's list.
# ARCH=all: every real architecture this nvcc knows from sm_75 up.
ARCH_PORTABLE := sm_75 sm_80 sm_90
ARCH_ALL = $(shell $(NVCC) --list-gpu-code 2>/dev/null | sed -n 's/^sm_\([0-9]*\)[a-z]*$$/\1/p' | \
             sort -nu | awk '$$1 >= 75 { printf "sm_%s ", $$1 }')
ARCH ?= $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | \
          head -n 1 | tr -d ' .' | sed -n 's/^\([0-9][0-9]*\)$$/sm_\1/p')
ARCHS := $(or $(if $(filter all,$(ARCH)),$(ARCH_ALL)),$(if $(filter portable,$(ARCH)),$(ARCH_PORTABLE)),$(strip $(ARCH)),$(ARCH_PORTABLE))
ifneq ($(filter-out sm_% compute_%,$(ARCHS)),)
$(error ARCH: '$(filter-out sm_% compute_%,$(ARCHS))' is neither sm_XX nor compute_XX (or all, portable))
endif
# -gencode per entry; where no PTX is asked for, the newest SASS architecture's PTX as well, so
# that a GPU newer than every entry still runs (through the driver's compiler).
gencode_sass = -gencode arch=compute_$(1:sm_%=%),code=sm_$(1:sm_%=%)
newest_sass = $(shell printf '%s\n' $(filter sm_%,$(ARCHS)) | sort -t_ -k2 -n | tail -n 1 | sed 's/[a-z]*$$//')
GENCODE := $(foreach a,$(filter sm_%,$(ARCHS)),$(call gencode_sass,$(a))) \
           $(foreach a,$(filter compute_%,$(ARCHS)),-gencode arch=$(a),code=$(a)) \
           $(if $(filter compute_%,$(ARCHS)),,-gencode arch=compute_$(newest_sass:sm_%=%),code=compute_$(newest_sass:sm_%=%))

CFLAGS := -std=c11 -O2 -g -Wall -Wextra -fopenmp -ffunction-sections -fdata-sections -Icommon/harness -Icommon/stencils -Icommon/device -I$(CUDA_HOME)/include -MMD -MP
NVFLAGS_BASE := -std=c++20 -O3 -lineinfo -Icommon/harness -Icommon/stencils -Icommon/device -Xcompiler -Wall,-fopenmp -MMD -MP
NVFLAGS := $(NVFLAGS_BASE) $(GENCODE)
LDFLAGS_CUDA := -Xcompiler -fopenmp -lm

COMMIT ?= $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)

# MPI (lab 9): the compiler flags of Open MPI's wrapper or of pkg-config; none: lab 9 and its
# host tests are skipped, and the rest of the course builds.
ifeq ($(origin MPI_CFLAGS),undefined)
MPI_CFLAGS := $(or $(shell mpicc --showme:compile 2>/dev/null),$(shell pkg-config --cflags ompi 2>/dev/null))
endif
ifeq ($(origin MPI_LIBS),undefined)
MPI_LIBS := $(or $(shell mpicc --showme:link 2>/dev/null),$(shell pkg-config --libs ompi 2>/dev/null))
endif
HAVE_MPI := $(if $(strip $(MPI_LIBS)),1)

# ---- discovery ----
# lab1_diff1d ... ; lab_id and sol_id turn lab1_diff1d into lab1 and sol1. A lab's build.mk may
# add flags (NVFLAGS_name, LDLIBS_name, COMMON_OBJS_name) or drop the lab where it cannot build.
LAB_NAMES := $(patsubst labs/%/lab.c,%,$(sort $(wildcard labs/lab*_*/lab.c)))
-include $(wildcard labs/*/build.mk)
lab_id = $(firstword $(subst _, ,$(1)))
sol_id = $(subst lab,sol,$(call lab_id,$(1)))
LAB_BINS := $(foreach n,$(LAB_NAMES),$(call lab_id,$(n)))
SOL_BINS := $(foreach n,$(LAB_NAMES),$(if $(wildcard solutions/$(n)/kernels.cu),$(call sol_id,$(n))))

# The harness: host C (checking, options, references, CSV, limits: unit-tested without a GPU),
# the run on the CUDA runtime (fields, run, report, convergence, profile, lab_main: run.h says
# which does what), main, and the GPU side (device.cu).
UNIT_OBJS := $(patsubst %,build/common/harness/%.o,check options reference csv program sandbox ranks limits) \
             $(patsubst %,build/common/stencils/%.o,star wave)
COMMON_OBJS := $(UNIT_OBJS) $(patsubst %,build/common/harness/%.o,fields run report convergence profile serve lab_main main device) \
               build/version.o

# ---- programs: ./labN from labs/, ./solN with the solution's kernels ----
# $(1) program, $(2) lab folder name, $(3) folder of kernels.cu
define program
$(1): build/labs/$(2)/lab.o build/$(3)/kernels.o $$(or $$(COMMON_OBJS_$(2)),$$(COMMON_OBJS)) | need-nvcc
	$$(NVCC) $$(GENCODE) -o $$@ $$^ $$(LDFLAGS_CUDA) $$(LDLIBS_$(2))
endef
$(foreach n,$(LAB_NAMES),$(eval $(call program,$(call lab_id,$(n)),$(n),labs/$(n))))
# (a student's release has no solutions/ but the prebuilt ./solN, which make leaves as they are)
$(foreach n,$(LAB_NAMES),$(if $(wildcard solutions/$(n)/kernels.cu),$(eval $(call program,$(call sol_id,$(n)),$(n),solutions/$(n)))))
# The solutions as make check builds a student's program (GRADING=1): build/grading/solN, which
# tests/17-serve.t searches for the CPU reference.
define grading_program
build/grading/$(1): build/grading/labs/$(2)/lab.o build/solutions/$(2)/kernels.o $$(or $$(COMMON_OBJS_$(2)),$$(COMMON_OBJS)) | need-nvcc
	$$(NVCC) $$(GENCODE) -o $$@ $$^ $$(LDFLAGS_CUDA) -Xlinker --gc-sections $$(LDLIBS_$(2))
endef
$(foreach n,$(LAB_NAMES),$(if $(wildcard solutions/$(n)/kernels.cu),$(eval $(call grading_program,$(call sol_id,$(n)),$(n)))))

# Build a lab with another kernels file (the tests plant bugs in copies):
#   make program LAB=lab5b_register_queue KERNELS=dir/kernels.cu OUT=file
program: build/labs/$(LAB)/lab.o $(or $(COMMON_OBJS_$(LAB)),$(COMMON_OBJS)) | need-nvcc
	$(NVCC) $(NVFLAGS) $(NVFLAGS_$(LAB)) -o $(OUT) $(KERNELS) build/labs/$(LAB)/lab.o \
	  $(or $(COMMON_OBJS_$(LAB)),$(COMMON_OBJS)) $(LDFLAGS_CUDA) $(LDLIBS_$(LAB))

# Every object of CUDA code depends on the targets it was built for: another ARCH rebuilds it.
build/%.o: %.cu build/gencode.txt | need-nvcc
	@mkdir -p $(@D)
	$(NVCC) $(NVFLAGS) -c $< -o $@

# make archs: every kernels file (and the harness's GPU side) compiled for every architecture of
# ARCH=all, apart from the build above; ptxas's report (-v) names each architecture it compiled.
GENCODE_ALL = $(foreach a,$(ARCH_ALL),$(call gencode_sass,$(a)))
ARCHS_OBJS := build/archs/common/harness/device.o \
  $(foreach n,$(LAB_NAMES),build/archs/labs/$(n)/kernels.o $(if $(wildcard solutions/$(n)/kernels.cu),build/archs/solutions/$(n)/kernels.o))
build/archs/%.o: %.cu build/archs/gencode.txt | need-nvcc
	@mkdir -p $(@D)
	@$(NVCC) $(NVFLAGS_BASE) $(GENCODE_ALL) -Xptxas -v -w -c $< -o $@ 2> $(@:.o=.ptxas) || { cat $(@:.o=.ptxas) >&2; rm -f $@; exit 1; }

# The targets' flags, rewritten only when they change (as build/version.c).
build/gencode.txt build/archs/gencode.txt: FORCE
	@mkdir -p $(@D)
	@t=$@.$$$$.tmp; echo '$(if $(findstring archs,$@),$(GENCODE_ALL),$(GENCODE))' > $$t; cmp -s $$t $@ && rm -f $$t || mv -f $$t $@

build/%.o: %.c | need-nvcc
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

# make check's build of a student's program (GRADING=1, with build/grading/labs/NAME/lab.o as the
# lab's object): the definition without its CPU reference (definition.h, LAB_REFERENCE), and the
# link drops whatever only the reference called.
build/grading/%.o: %.c | need-nvcc
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -DSTENCIL_GRADING -c $< -o $@
ifdef GRADING
LDFLAGS_CUDA += -Xlinker --gc-sections
endif

# The commit the binaries were built from; rewritten only when it changes. The temporary file is
# the shell's own, so that several makes at once (make program ... &) do not take each other's.
build/version.c: FORCE
	@mkdir -p $(@D)
	@t=$@.$$$$.tmp; echo 'const char BUILD_COMMIT[] = "$(COMMIT)";' > $$t; cmp -s $$t $@ && rm -f $$t || mv -f $$t $@

build/tests/unit: tests/unit.c $(UNIT_OBJS) | need-nvcc
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ tests/unit.c $(UNIT_OBJS) -lm

build/tests/sandbox: tests/sandbox.c $(UNIT_OBJS) | need-nvcc
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ tests/sandbox.c $(UNIT_OBJS) -lm -lpthread

build/common/harness/ranks-mpi.o: common/harness/ranks.c | need-nvcc
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -DSTENCIL_MPI $(MPI_CFLAGS) -c $< -o $@

build/tests/ranks: tests/ranks.c build/common/harness/ranks-mpi.o build/common/harness/program.o | need-nvcc
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(MPI_CFLAGS) -o $@ $(filter %.c %.o,$^) $(MPI_LIBS)

# Lab 9 on a GPU made of host memory (tests/fakegpu): the harness's processes, slabs, gather and
# verdicts under mpirun, where there is no GPU.
build/tests/fake9: tests/fakegpu/gpu.c tests/fakegpu/lab9.c build/labs/lab9_multigpu/lab.o \
                   $(filter-out build/common/harness/ranks.o build/common/harness/device.o,$(COMMON_OBJS)) build/common/harness/ranks-mpi.o | need-nvcc
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(MPI_CFLAGS) -o $@ $(filter %.c %.o,$^) $(MPI_LIBS) -lm

# Labs 5b and 8 (padded rows) on the same fake GPU, every variant answering with the lab's own CPU
# reference (tests/fakegpu/reference-kernels.c): the harness's pitch, fills, copies and checks
# where there is no GPU. One process: the single-process ranks object, no MPI.
FAKE_PITCH_OBJS := $(filter-out build/common/harness/device.o,$(COMMON_OBJS))
build/tests/fake5: build/labs/lab5b_register_queue/lab.o
build/tests/fake8: build/labs/lab8_wave/lab.o
build/tests/fake5 build/tests/fake8: tests/fakegpu/gpu.c tests/fakegpu/reference-kernels.c $(FAKE_PITCH_OBJS) | need-nvcc
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $(filter %.c %.o,$^) -lm

build/compare-dump: common/grader/compare-dump.c build/common/harness/check.o | need-nvcc
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ -lm

-include $(shell find build -name '*.d' 2>/dev/null)

# ---- targets ----
.PHONY: all archs doctor labs solutions check check-class test test-quick sanitize bench profile plots compare tables skeletons release gradescope \
        clean help FORCE need-nvcc need-gnuplot program list-labs print-archs

all: $(LAB_BINS) $(SOL_BINS) build/compare-dump  ## build every lab skeleton and reference solution
archs: $(ARCHS_OBJS)           ## compile every kernels file for every architecture from sm_75 (the CPU suite's check)
labs: $(LAB_BINS)              ## build the student labs (./labN)
solutions: $(SOL_BINS)         ## build the reference solutions (./solN)

test: all $(patsubst %,build/grading/%,$(SOL_BINS)) build/tests/unit build/tests/sandbox build/tests/fake5 build/tests/fake8 $(if $(HAVE_MPI),build/tests/ranks build/tests/fake9)  ## the project's own tests (TAP, run by prove)
	prove --exec '' tests/*.t

# The edit loop's tier: unit and command-line tests, skeletons, tables, the grader's start and a
# few vet cases, on labs 1 and 2 (TEST_LABS) and five cheating files (VET_CHEATS); under 30 s.
QUICK_CHEATS := static-main,static-system,static-fopen,static-dlsym,static-ctor-attribute
test-quick: all build/tests/unit build/tests/sandbox  ## the edit loop's tests, under 30 s (make test: all of them)
	TEST_LABS=lab1_diff1d,lab2_naive7pt VET_CHEATS=$(QUICK_CHEATS) prove --exec '' tests/00-build.t tests/10-unit.t \
	  tests/20-cli.t tests/30-skeleton.t tests/45-tables.t tests/55-vet.t tests/60-check.t tests/62-check-class.t

sanitize: all                  ## compute-sanitizer memcheck, racecheck, synccheck on every solution's sanitize cases (GPU)
	prove --exec '' tests/70-sanitizer.t

check: all                     ## grade the kernels files in labs/ (or SUBMISSION=dir) on this GPU
	perl common/grader/check.pl $(if $(SUBMISSION),--submission $(SUBMISSION))

check-class: all               ## grade every student folder of SUBMISSIONS=dir on this GPU: a gradebook in dir-graded/
	$(if $(SUBMISSIONS),,$(error make check-class SUBMISSIONS=dir: a folder per student))
	perl common/grader/check-class.pl $(SUBMISSIONS) $(if $(GRADED),--out $(GRADED))

bench: $(SOL_BINS)             ## run the solutions at benchmark sizes, append CSV under data/ (LABS="lab5b_register_queue ...": those only)
	perl common/tools/bench.pl $(or $(LABS),$(LAB_NAMES))

# make profile appends its rows to data/<GPU>-profile.csv (the GPU's name as make bench writes it).
PROFILE_CSV = data/$(shell nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1 | tr ' ' _)-profile.csv
profile: $(SOL_BINS)           ## DRAM bytes per point of every solution variant (Nsight Compute), into data/<GPU>-profile.csv
	@for s in $(SOL_BINS); do ./$$s --profile --csv $(PROFILE_CSV) || exit $$?; done

plots: all | need-gnuplot      ## figures under plots/ from data/ and the models (the roofline asks the programs their flops)
	bash plots/make-plots.sh

# make compare CSV=mine.csv [OUT=mine.png] [GPU=...]: the student's CSV beside the reference
# data of the same problems; exported, so that no path is quoted by a shell (plots/compare.gnuplot)
compare: export COMPARE_CSV := $(CSV)
compare: export COMPARE_OUT := $(or $(OUT),$(basename $(CSV)).png)
compare: export COMPARE_GPU := $(GPU)
compare: | need-gnuplot        ## draw CSV=your.csv beside the reference (% of copy) into OUT= (default: beside the CSV)
	@[ -n "$$COMPARE_CSV" ] || { echo "make compare: give CSV=your.csv (written by ./labN --csv FILE)" >&2; exit 2; }
	@[ -f "$$COMPARE_CSV" ] || { echo "make compare: no file $$COMPARE_CSV" >&2; exit 2; }
	@gnuplot plots/compare.gnuplot && echo "$$COMPARE_OUT"

doctor:                        ## one screen: toolkit, driver, GPUs, what make builds, ncu's counters, MPI, NCCL, each lab here
	@bash common/tools/doctor.sh

tables: ## rewrite the generated result tables in README.md and handouts/ from data/
	perl plots/tables.pl

skeletons: ## regenerate labs/*/kernels.cu from the marked regions of solutions/ (overwrites!)
	@for d in $(LAB_NAMES); do \
	  [ -f solutions/$$d/kernels.cu ] && awk -f common/tools/skeleton.awk solutions/$$d/kernels.cu > labs/$$d/kernels.cu; \
	done; true

release: ## write the student tree (no solutions, answers or planted bugs) to RELEASE=dir
	bash common/tools/release.sh $(or $(RELEASE),release)

gradescope: ## build the Gradescope autograder, build/autograder.zip
	bash common/tools/gradescope.sh build/autograder.zip

clean: ## remove build products
	rm -rf build $(LAB_BINS) $(SOL_BINS) results.json

help: ## this list
	@echo "stencil-labs: make TARGET [ARCH=sm_XX]"
	@echo "  labN, solN      one lab's skeleton (./labN) or reference solution (./solN); labs: $(LAB_BINS)"
	@grep -hE '^[a-z]+:.*## ' $(firstword $(MAKEFILE_LIST)) | sed 's/:.*## /\t/' | awk -F'\t' '{printf "  %-15s %s\n", $$1, $$2}'

# What ARCH gives: the architectures, and nvcc's -gencode flags for them (make doctor, the tests).
print-archs:
	@echo "archs $(ARCHS)"
	@echo "gencode $(GENCODE)"

# The labs that build here (tests/ and make check ask, so that lab 9 is dropped as make drops it),
# and the libraries as found here: make check builds a student's lab with these settings, in an
# environment too bare to find them again (no NCCL_HOME, a short PATH).
list-labs:
	@echo "labs: $(LAB_NAMES)"
	@echo "var MPI_CFLAGS=$(MPI_CFLAGS)"
	@echo "var MPI_LIBS=$(MPI_LIBS)"
	$(if $(NCCL_HOME),@echo "var NCCL_HOME=$(NCCL_HOME)")

need-nvcc:
	@command -v $(NVCC) >/dev/null || { echo "nvcc not found: install the CUDA Toolkit 12 or newer (NVIDIA's cuda-toolkit, or Debian's nvidia-cuda-toolkit) and put nvcc on PATH" >&2; exit 1; }

need-gnuplot:
	@command -v gnuplot >/dev/null || { echo "gnuplot not found: install it (Debian: apt-get install gnuplot-nox)" >&2; exit 1; }

FORCE:
