set -x
make -j16 all build/tests/unit build/tests/sandbox >/dev/null 2>&1
./sol8 --reps 10
./sol8 --size 256 --reps 20
./sol8 --size 512x512x256 --reps 10 --variant zq_32x8 --variant zq_64x4 --variant queue4p
./sol8 --size 66x40x40 --steps 3 --variant zq_32x8 --variant zq_64x4 --sponge 5 --model 1
compute-sanitizer --tool synccheck --num-cuda-barriers 8 ./sol8 --size 72x40x30 --steps 3 --reps 1 2>&1 | tail -4
compute-sanitizer --tool synccheck --num-cuda-barriers 8 ./sol5 --size 40x70x30 --order 12 --reps 1 2>&1 | tail -4
compute-sanitizer --tool memcheck ./sol8 --size 37x20x52 --steps 2 --model 1 --sponge 4 --reps 1 --variant zq_32x8 --variant queue4p 2>&1 | tail -3
./sol8 --profile --size 256 --steps 2 2>&1 | tail -9
COMMIT=a1b5224-dirty timeout 360 bash tests/gpu-session.sh gpu-1-3 >/dev/null 2>&1; n=$(grep -n "GPU verification" data/*-test.log | tail -1 | cut -d: -f1); tail -n +$n data/*-test.log | grep -E "not ok|^# Looks|^1\.\.|exit status|verification"; cp data/*-test.log $OUT/
