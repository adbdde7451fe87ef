# SPDX-License-Identifier: MIT
# stencil-labs. `make help` lists the targets. A lab is a folder solutions/labN_name/ (the
# reference solution, the source of truth) with its skeleton in labs/labN_name/; the rules
# below find them by wildcard, so a new lab needs no edit here.
.DEFAULT_GOAL := all
SHELL := /bin/bash

NVCC ?= nvcc
CC := gcc
NVCC_PATH := $(shell command -v $(NVCC) 2>/dev/null)
CUDA_HOME ?= $(if $(NVCC_PATH),$(patsubst %/bin/nvcc,%,$(NVCC_PATH)),/usr/local/cuda)

# GPU target: the GPU in this machine (compute capability from nvidia-smi), else a portable
# default that any GPU CUDA 12+ supports runs through its PTX. Override with ARCH=sm_90.
ARCH ?= $(shell nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | \
          head -n 1 | tr -d ' .' | sed -n 's/^\([0-9][0-9]*\)$$/sm_\1/p')
ifeq ($(strip $(ARCH)),)
GENCODE := -gencode arch=compute_75,code=[sm_75,compute_75]
else
GENCODE := -arch=$(ARCH)
endif

CFLAGS := -std=c11 -O2 -g -Wall -Wextra -fopenmp -Icommon -I$(CUDA_HOME)/include -MMD -MP
NVFLAGS := -std=c++20 -O3 -lineinfo $(GENCODE) -Icommon -Xcompiler -Wall,-fopenmp -MMD -MP
LDFLAGS_CUDA := -Xcompiler -fopenmp -lm

COMMIT ?= $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)

# ---- discovery ----
# lab1_diff1d ... ; lab_id and sol_id turn lab1_diff1d into lab1 and sol1.
LAB_NAMES := $(notdir $(sort $(wildcard solutions/lab*_*)))
lab_id = $(firstword $(subst _, ,$(1)))
sol_id = $(subst lab,sol,$(call lab_id,$(1)))
LAB_BINS := $(foreach n,$(LAB_NAMES),$(call lab_id,$(n)))
SOL_BINS := $(foreach n,$(LAB_NAMES),$(call sol_id,$(n)))

COMMON_OBJS := $(patsubst %.c,build/%.o,$(wildcard common/*.c)) \
               $(patsubst %.cu,build/%.o,$(wildcard common/*.cu)) build/version.o
UNIT_OBJS := build/common/check.o build/common/options.o build/common/reference.o

# ---- programs: ./labN from labs/, ./solN from solutions/ ----
define program
$(1): $$(patsubst %.cu,build/%.o,$$(wildcard $(2)/*.cu)) $$(COMMON_OBJS) | need-nvcc
	$$(NVCC) $$(GENCODE) -o $$@ $$^ $$(LDFLAGS_CUDA)
endef
$(foreach n,$(LAB_NAMES),$(eval $(call program,$(call lab_id,$(n)),labs/$(n))))
$(foreach n,$(LAB_NAMES),$(eval $(call program,$(call sol_id,$(n)),solutions/$(n))))

# Build a lab from any folder (the tests plant bugs in copies): make program SRC=dir OUT=file
program: $(COMMON_OBJS) | need-nvcc
	$(NVCC) $(NVFLAGS) -o $(OUT) $(wildcard $(SRC)/*.cu) $(COMMON_OBJS) $(LDFLAGS_CUDA)

build/%.o: %.cu | need-nvcc
	@mkdir -p $(@D)
	$(NVCC) $(NVFLAGS) -c $< -o $@

build/%.o: %.c | need-nvcc
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c $< -o $@

# The commit the binaries were built from; rewritten only when it changes.
build/version.c: FORCE
	@mkdir -p $(@D)
	@echo 'const char BUILD_COMMIT[] = "$(COMMIT)";' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv -f $@.tmp $@

build/tests/unit: tests/unit.c tests/tap.h $(UNIT_OBJS) | need-nvcc
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itests -o $@ tests/unit.c $(UNIT_OBJS) -lm

-include $(shell find build -name '*.d' 2>/dev/null)

# ---- targets ----
.PHONY: all labs solutions check test bench profile plots tables skeletons clean help FORCE \
        need-nvcc need-gnuplot program

all: $(LAB_BINS) $(SOL_BINS)   ## build every lab skeleton and reference solution
labs: $(LAB_BINS)              ## build the student labs (./labN)
solutions: $(SOL_BINS)         ## build the reference solutions (./solN)

test: all build/tests/unit     ## the project's own tests (TAP, run by prove)
	prove --exec '' tests/*.t

check: all                     ## grade the student labs against the reference solutions
	perl common/check.pl $(LAB_NAMES)

bench: $(SOL_BINS)             ## run the solutions at benchmark sizes, append CSV under data/
	bash common/bench.sh $(LAB_NAMES)

profile: $(SOL_BINS)           ## DRAM bytes per point of every solution variant (Nsight Compute)
	@for s in $(SOL_BINS); do ./$$s --profile || exit $$?; done

plots: | need-gnuplot          ## figures under plots/ from data/ and the models
	bash plots/make-plots.sh

tables: ## rewrite the generated result tables in README.md and handouts/ from data/
	perl plots/data.pl tables

skeletons: ## regenerate labs/ from the marked regions of solutions/ (overwrites labs/!)
	@for d in $(LAB_NAMES); do \
	  mkdir -p labs/$$d; \
	  for f in solutions/$$d/*.cu solutions/$$d/*.h; do [ -e $$f ] || continue; awk -f common/skeleton.awk $$f > labs/$$d/$$(basename $$f); done; \
	done

clean: ## remove build products
	rm -rf build $(LAB_BINS) $(SOL_BINS) results.json

help: ## this list
	@echo "stencil-labs: make TARGET [ARCH=sm_XX]"
	@echo "  labN, solN      one lab's skeleton (./labN) or reference solution (./solN); labs: $(LAB_BINS)"
	@grep -hE '^[a-z]+:.*## ' $(firstword $(MAKEFILE_LIST)) | sed 's/:.*## /\t/' | awk -F'\t' '{printf "  %-15s %s\n", $$1, $$2}'

need-nvcc:
	@command -v $(NVCC) >/dev/null || { echo "nvcc not found: install the CUDA Toolkit 12 or newer (NVIDIA's cuda-toolkit, or Debian's nvidia-cuda-toolkit) and put nvcc on PATH" >&2; exit 1; }

need-gnuplot:
	@command -v gnuplot >/dev/null || { echo "gnuplot not found: install it (Debian: apt-get install gnuplot-nox)" >&2; exit 1; }

FORCE:
