#!/bin/bash
# mkx.sh OUT NAME=SRC[:K=V,K=V] ... : one sol7 with a tb variant per configuration (experiments)
set -e
out=$1; shift
NV="nvcc -std=c++20 -O3 -lineinfo -Icommon/harness -Icommon/stencils -Icommon/device -Ilabs/lab7_heat_multistep -gencode arch=compute_90,code=sm_90"
objs=(); decl=; rows=; setups=
for cfg in "$@"; do
  name=${cfg%%=*}; rest=${cfg#*=}; src=${rest%%:*}; kvs=; [[ $rest == *:* ]] && kvs=${rest#*:}
  f=scratch/x_$name.cu; cp $src $f
  for kv in ${kvs//,/ }; do k=${kv%%=*}; v=${kv#*=}; perl -pi -e "s/\b($k) = \d+/\$1 = $v/ if /^constexpr int/" $f; done
  ren="-Dlaunch_tb=launch_$name -Drefuse_tb=refuse_$name -Dmodel_tb=model_$name -Dsetup_kernels=setup_$name"
  for k in heat_tb2 heat_tb3 heat_gm heat_shm heat_fused; do ren="$ren -D$k=${k}_$name"; done
  $NV $ren -c $f -o scratch/x_$name.o
  $NV -arch=sm_90 -Xptxas -v $ren -c $f -o /dev/null 2>&1 | grep -A2 "heat_tb" | grep Used | tr '\n' ' '; echo " <- $name ($kvs)"
  objcopy --weaken scratch/x_$name.o
  objs+=(scratch/x_$name.o)
  decl="$decl DECLARE_VARIANT($name); setup_fn setup_$name;"
  rows="$rows VARIANT($name, \"$kvs\", 0),"
  setups="$setups setup_$name(p);"
done
perl -0pe "s/DECLARE_VARIANT\(tb\);/DECLARE_VARIANT(tb);$decl\nstatic void setup_x(const struct problem *p) {$setups }/; s/    VARIANT\(tb,[^\n]*\n/$rows\n/; s/\.setup = setup_kernels/.setup = setup_x/" labs/lab7_heat_multistep/lab.c > scratch/labx.c
gcc -std=c11 -O2 -fopenmp -Icommon/harness -Icommon/stencils -Icommon/device -Ilabs/lab7_heat_multistep -I/usr/local/cuda/include -c scratch/labx.c -o scratch/labx.o
common=$(make -s -n program LAB=lab7_heat_multistep KERNELS=X OUT=Y ARCH=sm_90 | grep -o 'build/common[^ ]*\.o\|build/version.o' | sort -u | tr "\n" " ")
nvcc -gencode arch=compute_90,code=sm_90 -o $out "${objs[@]}" scratch/labx.o $common -Xcompiler -fopenmp -lm
echo built $out
