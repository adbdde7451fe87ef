# SPDX-License-Identifier: MIT
# What make check refuses to build or run, before any of a student's code executes. A kernels
# file may launch kernels and do arithmetic; it may not reach anything else of the machine.
#   vet_source(file, dir, incdirs)  what the preprocessor reads: only the lab's own headers,
#                                   the harness's and the system's; no .incbin
#   vet_object(obj, others)         what the compiled file defines and calls: only the CUDA
#                                   runtime's launch and set-up functions, libm and the lab
#                                   contract; nothing that replaces a symbol of the program; no
#                                   constructor or destructor; no system call instruction
# Each returns undef when the file is acceptable, else one line saying why not.
package Vet;
use strict;
use warnings;
use Exporter 'import';
use Cwd qw(abs_path);
use File::Basename qw(dirname);
our @EXPORT_OK = qw(vet_source vet_object system_include_dirs);

my $NVCC = $ENV{NVCC} // 'nvcc';

# The compiler's own include directories (gcc's, the CUDA toolkit's): headers a kernels file may read.
sub system_include_dirs {
    my @dirs;
    for my $lang ('c++') {
        my $out = `echo | gcc -x$lang -E -v - 2>&1 >/dev/null`;
        if ($out =~ /#include <\.\.\.> search starts here:\n(.*?)End of search list/s) {
            push @dirs, map { s/^\s+|\s+$//gr } split /\n/, $1;
        }
    }
    (my $cuda = `command -v $NVCC 2>/dev/null`) =~ s{/bin/nvcc\s*$}{};
    push @dirs, "$cuda/include", "$cuda/targets" if $cuda;
    return grep { -d } map { abs_path($_) // $_ } @dirs;
}

# Every file the preprocessor opens for `file` (nvcc -M), and the preprocessed text.
sub vet_source {
    my ($file, $lab_dir, $common_dir, @allowed) = @_;
    my @roots = map { abs_path($_) } grep { defined && -d } ($lab_dir, $common_dir, @allowed, system_include_dirs());
    my $deps = `$NVCC -std=c++20 -M -I$common_dir -I$lab_dir '$file' 2>&1`;
    return "the preprocessor cannot read it: " . (split /\n/, $deps)[0] if $?;
    $deps =~ s/\\\n/ /g;
    $deps =~ s/^[^:]*://;
    for my $dep (split ' ', $deps) {
        my $path = abs_path($dep) // $dep;
        next if $path eq abs_path($file);
        return "it includes $dep: a kernels file may include only the lab's, the harness's and the system's headers"
            unless grep { index($path, "$_/") == 0 } @roots;
    }
    my $text = `$NVCC -std=c++20 -E -I$common_dir -I$lab_dir '$file' 2>/dev/null`;
    return "it embeds a file into the program (.incbin)" if $text =~ /incbin/i;
    return undef;
}

# Symbols a kernels file may call: the CUDA runtime functions a launch needs (registration,
# launch, constant memory, function attributes, occupancy, device memory, errors), the C++ ABI
# helpers nvcc's host code calls, libm, and the lab contract (common/lab.h). No copy between
# host and device, no host-accessible memory, no streams or callbacks of its own, no I/O, no
# process or system functions.
my %ALLOWED = map { $_ => 1 } qw(
    __cudaRegisterFatBinary __cudaRegisterFatBinaryEnd __cudaUnregisterFatBinary __cudaRegisterFunction
    __cudaRegisterVar __cudaPushCallConfiguration __cudaPopCallConfiguration __cudaLaunchKernel
    __cudaGetKernel cudaLaunchKernel cudaGetLastError cudaPeekAtLastError cudaGetErrorString
    cudaGetErrorName cudaMemcpyToSymbol cudaMemcpyToSymbolAsync cudaFuncSetAttribute
    cudaFuncGetAttributes cudaOccupancyMaxActiveBlocksPerMultiprocessor
    cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags cudaDeviceGetAttribute cudaGetDevice
    cudaGetDeviceProperties cudaDeviceSynchronize cudaStreamSynchronize cudaMalloc cudaFree
    cudaMemset cudaMemsetAsync cudaFuncSetCacheConfig
    atexit __cxa_atexit __dso_handle __gxx_personality_v0 __cxa_guard_acquire __cxa_guard_release
    __cxa_guard_abort _Unwind_Resume __stack_chk_fail __assert_fail
    memcpy memset memmove strlen snprintf __snprintf_chk __memcpy_chk __memset_chk __memmove_chk
    lab_cuda_failed laplacian_coefficients
);

my %libm;
sub libm_symbol {
    my ($name) = @_;
    unless (%libm) {
        my $lib = `gcc -print-file-name=libm.so.6`;
        chomp $lib;
        %libm = map { (split ' ')[-1] =~ s/@.*//r => 1 } grep { / [TiW] / } `nm -D --defined-only $lib 2>/dev/null`;
        $libm{__none__} = 1;
    }
    return $libm{$name};
}

# Global symbols an object or library defines (nm), or references without defining (-u).
sub symbols {
    my ($file, $undefined, $dynamic) = @_;
    my $flags = ($dynamic ? '-D ' : '') . ($undefined ? '-u' : '--defined-only -g');
    my %s;
    for (`nm $flags '$file' 2>/dev/null`) {
        my @f = split ' ';
        next unless @f >= 2;
        my ($type, $name) = @f[-2, -1];
        next if !$undefined && $type !~ /^[A-Z]$/;
        $name =~ s/@.*//;
        $s{$name} = 1;
    }
    return \%s;
}

# The symbols of everything else the program links: the definition, the harness, the CUDA
# runtime, and the shared libraries of a built program (ldd).
sub program_symbols {
    my ($program, @objects) = @_;
    my (%defined, %wanted);
    for my $o (@objects) {
        %defined = (%defined, %{ symbols($o) });
        %wanted = (%wanted, %{ symbols($o, 1) });
    }
    (my $cuda = `command -v $NVCC 2>/dev/null`) =~ s{/bin/nvcc\s*$}{};
    for my $a (grep { -f } "$cuda/lib64/libcudart_static.a", "$cuda/targets/x86_64-linux/lib/libcudart_static.a") {
        %defined = (%defined, %{ symbols($a) });
        last;
    }
    for my $line (`ldd '$program' 2>/dev/null`) {
        next unless $line =~ /=>\s*(\S+)/ && -f $1;
        %defined = (%defined, %{ symbols($1, 0, 1) });
    }
    return (\%defined, \%wanted);
}

sub vet_object {
    my ($obj, $program, $definition, @harness) = @_;
    return "it did not compile to an object" unless -f $obj;
    my $u = symbols($obj, 1);
    my @bad = grep { !$ALLOWED{$_} && !libm_symbol($_) } sort keys %$u;
    return "it calls @bad[0 .. ($#bad < 4 ? $#bad : 4)]: a kernels file may launch kernels and set them up, nothing else"
        if @bad;
    my $interface = symbols($definition, 1);  # what the definition wants from the kernels file
    my ($defined, $wanted) = program_symbols($program, $definition, @harness);
    # (DW.ref.__gxx_personality_v0: the personality routine's address, which every C++ object
    # with exception tables carries, identical in each.)
    my @clash = grep { !$interface->{$_} && !/^DW\.ref\./ && ($defined->{$_} || $wanted->{$_}) } sort keys %{ symbols($obj) };
    return "it defines @clash[0 .. ($#clash < 4 ? $#clash : 4)], which the program already has: a kernels file may not replace a symbol of the harness or a library"
        if @clash;
    my $sections = `objdump -h '$obj' 2>/dev/null`;
    return "it has destructors or early constructors" if $sections =~ /\s\.(preinit_array|fini_array|ctors|dtors)\b/;
    my $init = () = `objdump -r -j .init_array '$obj' 2>/dev/null` =~ /R_X86_64_64/g;
    return "it defines a constructor (code that runs before main)" if $init > 1;  # nvcc's registration is one
    my $text = `objdump -d --no-show-raw-insn '$obj' 2>/dev/null`;
    return "its host code makes system calls" if $text =~ /\t(syscall|sysenter|int\s+\$0x80)\b/;
    return undef;
}
1;
