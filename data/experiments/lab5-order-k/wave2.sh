#!/usr/bin/env bash
# The z chunks in whole waves again (wave.sh), now that the last tiles write the strips from their
# ring, and two rows a thread above order 8 (issue 16). wave2-kernels.cu (git history only: git show
# e1cf0bd:data/experiments/lab5-order-k/wave2-kernels.cu > the same path) is the solution at 34d4320
# with two switches: WAVES (0: the solution's chunks; W: at most W waves of the blocks the SMs hold
# at once) and BY_HI (threads in y above order 8; 8 gives each thread two rows).
#   sol  the tree's solution        w2, w4  WAVES=2, 4        py2  BY_HI=8 (orders 10 and 12)
#   edge: sol, w4, w6 (WAVES=6) and w4a64 (w4 with lab 5's rows padded to 64 floats, in a copy of
#   the tree) at 512^3, 513^3 and each dimension 513 alone, orders 2 and 8; orders 4 and 12 at
#   512^3 and 513^3
# The recorded runs (NOTES.md) were made at 34d4320; since e1cf0bd the tree's solution has the kept
# chunk rule and rows of 64 floats, so sol and w4a64 are no longer what they were.
# Usage (repository root): OUT=dir bash data/experiments/lab5-order-k/wave2.sh [time|profile|edge]
set -u
here=data/experiments/lab5-order-k
phase=${1:-time}
make -j16 ARCH=sm_90 COMMIT="${COMMIT:-new}" sol5 >/dev/null 2>&1 || { echo "build failed"; exit 1; }
cp sol5 /tmp/v-sol
build() {  # name, flags
    make ARCH=sm_90 program LAB=lab5_register_tiling KERNELS=$here/wave2-kernels.cu OUT=/tmp/v-$1 \
        "NVFLAGS_lab5_register_tiling=$2" >/tmp/vb-$1.txt 2>&1 || { echo "build $1 failed"; tail -3 /tmp/vb-$1.txt; }
}
progs="sol w2 w4 py2"
if [ "$phase" = edge ]; then
    progs="sol w4 w6 w4a64"
    build w4 -DWAVES=4 & build w6 -DWAVES=6 &
    rm -rf /tmp/a64 && mkdir -p /tmp/a64 && cp -r Makefile common labs solutions data /tmp/a64/ &&
        sed -i "s/\.row_align = 32,/.row_align = 64,/" /tmp/a64/labs/lab5_register_tiling/lab.c &&
        grep -q "row_align = 64," /tmp/a64/labs/lab5_register_tiling/lab.c &&
        ( cd /tmp/a64 && make -j16 ARCH=sm_90 COMMIT=a64 sol5 >/dev/null 2>&1 &&
          make ARCH=sm_90 program LAB=lab5_register_tiling KERNELS=$here/wave2-kernels.cu OUT=/tmp/v-w4a64 \
              NVFLAGS_lab5_register_tiling=-DWAVES=4 >/dev/null 2>&1 ) || echo "build w4a64 failed" &
    wait
else
    build w2 -DWAVES=2 & build w4 -DWAVES=4 & build py2 -DBY_HI=8 & wait
fi
owes() { [ "$1" != py2 ] || [ "$2" -ge 10 ]; }  # py2 differs from sol above order 8 only
odd="--order 2 --size 513x7x9|--order 8 --size 67x45x31|--order 8 --size 513x40x37|--order 10 --size 133x21x40|--order 12 --size 260x45x31|--order 12 --size 131x17x30|--order 10 --size 129x33x70|--order 12 --size 513x40x37|--order 4 --size 129x45x20"
run() {  # label, size, orders
    for k in $3; do for v in $progs; do
        owes $v $k || continue
        /tmp/v-$v --size $2 --order $k --variant queue4_128x16 --reps 20 --csv "$OUT/wave2.csv" | grep queue4 | sed "s/^/$1 $v $k /"
    done; done
}
case $phase in
time)
    for v in $progs; do
        bad=0
        IFS='|'; for c in $odd; do IFS=' '
            /tmp/v-$v $c --variant queue4_128x16 --reps 1 --quiet || { echo "$v FAILS $c"; bad=1; }
        done; IFS=' '
        echo "== $v odd sizes: $([ $bad = 0 ] && echo pass || echo FAIL)"
    done
    run 1 512 "2 4 6 8 10 12"; run 1 513 "2 8 12"; run 1 376 "2 8 12"; run 1 544x544x400 "8 12"
    run 2 512 "2 8 10 12"; run 2 513 "2 8 12" ;;
edge)
    for round in 1 2; do for k in 2 8; do
        for n in 512 513 513x512x512 512x513x512 512x512x513; do run $round $n $k; done
    done; done
    run 1 512 "4 12"; run 1 513 "4 12" ;;
profile)
    for k in 2 8 12; do for v in $progs; do
        owes $v $k || continue
        echo "== profile $v order $k: $(/tmp/v-$v --profile --order $k --variant queue4_128x16 2>&1 | grep -E 'queue4|ERR')"
    done; done
    for v in sol w4; do
        echo "== profile $v order 8 513: $(/tmp/v-$v --profile --size 513 --order 8 --variant queue4_128x16 2>&1 | grep -E 'queue4|ERR')"
    done ;;
esac
