# SPDX-License-Identifier: MIT
# What make check refuses to build or run, before any of a student's code executes. A kernels
# file may launch kernels and do arithmetic; it may not reach anything else of the machine.
#   vet_source(file, dir, incdirs)  what the preprocessor reads: only the lab's own headers,
#                                   the harness's and the system's; no assembly in host code
#   vet_object(obj, others)         what the compiled file defines and calls: only the CUDA
#                                   runtime's launch and set-up functions, libm and the lab
#                                   contract; nothing that replaces or hooks a symbol of the
#                                   program; no constructor, destructor or code run before main;
#                                   no system call instruction
# Each returns undef when the file is acceptable, else one line saying why not.
# tests/55-vet.t runs both on the cheating files tests/cheats/static-*.patch (applied to the solutions) and on every honest file.
package Vet;
use strict;
use warnings;
use Exporter 'import';
use Cwd qw(abs_path);
use File::Basename qw(dirname);
use File::Spec;
use File::Path qw(remove_tree);
use File::Temp qw(tempdir);
use Text::ParseWords qw(shellwords);
our @EXPORT_OK = qw(vet_source vet_object system_include_dirs);

my $NVCC = $ENV{NVCC} // 'nvcc';

# `cmd...` run in `dir` without a shell, under a time limit (a file may #include a FIFO or
# /dev/zero); (exit status, stdout and stderr). make check lowers $TIME_LIMIT (seconds a step)
# to what is left of its time budget.
our $TIME_LIMIT = 300;
my $TIMEOUT = system('command -v timeout >/dev/null 2>&1') == 0;
sub capture {
    my ($dir, $env, @cmd) = @_;
    unshift @cmd, 'timeout', '-k', '5', int($TIME_LIMIT < 1 ? 1 : $TIME_LIMIT) if $TIMEOUT;
    my $pid = open(my $fh, '-|') // return (-1, "cannot fork: $!");
    if (!$pid) {
        open STDERR, '>&', \*STDOUT;
        open STDIN, '<', '/dev/null';
        chdir $dir or do { print "cannot enter $dir: $!\n"; exit 127 };
        @ENV{ keys %$env } = values %$env;
        delete @ENV{ grep { !defined $ENV{$_} } keys %ENV };
        exec @cmd or do { print "cannot run $cmd[0]: $!\n"; exit 127 };
    }
    my $out = do { local $/; <$fh> } // '';
    close $fh;
    return ($?, $out);
}

# The CUDA toolkit's folder, as nvcc itself reports it (nvcc on PATH may be a wrapper script
# elsewhere, e.g. /usr/local/bin/nvcc that execs the toolkit's).
my $CUDA_ROOT;
sub cuda_root {
    return $CUDA_ROOT if defined $CUDA_ROOT;
    my $tmp = tempdir('vet-XXXXXX', TMPDIR => 1);
    my $cu = "$tmp/empty.cu";
    if (open my $fh, '>', $cu) { close $fh }
    my (undef, $out) = capture($tmp, {}, $NVCC, '--dryrun', '-c', $cu, '-o', "$tmp/empty.o");
    remove_tree($tmp);
    my ($top) = $out =~ /^#\$ TOP=(\S+)\s*$/m;
    $CUDA_ROOT = defined $top ? abs_path($top) // '' : '';
    return $CUDA_ROOT;
}

# The compiler's own include directories (gcc's, the CUDA toolkit's): headers a kernels file may read.
my @SYSTEM_DIRS;
sub system_include_dirs {
    return @SYSTEM_DIRS if @SYSTEM_DIRS;
    my @dirs;
    for my $lang ('c++') {
        my $out = `echo | gcc -x$lang -E -v - 2>&1 >/dev/null`;
        if ($out =~ /#include <\.\.\.> search starts here:\n(.*?)End of search list/s) {
            push @dirs, map { s/^\s+|\s+$//gr } split /\n/, $1;
        }
    }
    my $cuda = cuda_root();
    push @dirs, "$cuda/include", "$cuda/targets" if $cuda;
    return @SYSTEM_DIRS = grep { -d } map { abs_path($_) // $_ } @dirs;
}

sub under { my ($path, @roots) = @_; return grep { index($path, "$_/") == 0 } @roots }

# The command the build compiles `rel` (a path inside `root`) with, as the Makefile says it
# (make -n, in the build's folder, with the build's environment): (nvcc, flags) without the
# input, the output and the dependency-file flags; () if the Makefile does not say.
sub build_command {
    my ($root, $rel) = @_;
    (my $target = "build/$rel") =~ s/\.cu$/.o/;
    my %env = (MAKEFLAGS => undef, MFLAGS => undef, MAKELEVEL => undef);
    my ($st, $out) = capture($root, \%env, 'make', '-n', '--no-print-directory', '-W', $rel, $target);
    return () if $st;
    for my $line (split /\n/, $out) {
        my @w = shellwords($line);
        my ($c) = grep { $w[$_] eq '-c' && ($w[$_ + 1] // '') eq $rel } 0 .. $#w;
        next unless defined $c && $w[0] =~ m{(^|/)nvcc$};
        splice @w, $c, 2;
        my @flags;
        for (my $i = 1; $i < @w; $i++) {
            if ($w[$i] =~ /^-(o|MF|MT|MQ)$/) { $i++; next }
            next if $w[$i] =~ /^-(MMD|MD|MP|M)$/;
            push @flags, $w[$i];
        }
        return ($w[0], @flags);
    }
    return ();
}

# The host code of `rel` as the host compiler gets it: nvcc's own host preprocessing and
# cudafe++ step (from nvcc --dryrun), which replace the bodies of device functions by stubs.
# Returns the text, or (undef, why).
sub host_code {
    my ($root, $nvcc, $flags, $rel) = @_;
    # removed here, not at exit: check.pl's builders end with POSIX::_exit
    my $tmp = tempdir('vet-XXXXXX', TMPDIR => 1);
    my @r = eval { host_steps($root, $nvcc, $flags, $rel, $tmp) };
    @r = (undef, "cannot preprocess the host code: $@") if $@;
    remove_tree($tmp);
    return @r;
}

sub host_steps {
    my ($root, $nvcc, $flags, $rel, $tmp) = @_;
    my ($st, $out) = capture($root, {}, $nvcc, @$flags, '-c', $rel, '-o', "$tmp/vet.o", '--dryrun');
    return (undef, "nvcc --dryrun failed: " . (split /\n/, $out)[0]) if $st;
    my (%env, @steps, $gen);
    for my $line (split /\n/, $out) {
        next unless $line =~ s/^#\$ //;
        if ($line =~ /^(PATH|LD_LIBRARY_PATH)=(\S*)\s*$/) { $env{$1} = $2; next }
        next if $line =~ /^[A-Za-z_]+=/;
        next unless ($line =~ /\s-E\s.*\.cpp4\.ii"?\s*$/ && $line !~ /^\S*(cicc|cudafe)/) || $line =~ /^\S*cudafe\+\+\s/;
        # nvcc's temporary files, in a folder of ours
        $line =~ s{(?:[^\s"]*/)?tmpxft_[0-9a-f]+_[0-9a-f]+-}{$tmp/}g;
        $gen = $1 if $line =~ /--gen_c_file_name\s+"([^"]+)"/;
        push @steps, $line;
    }
    return (undef, "nvcc --dryrun shows no host preprocessing") unless @steps == 2 && $gen;
    for my $step (@steps) {
        ($st, $out) = capture($root, \%env, 'sh', '-c', $step);
        return (undef, "it does not compile: " . ((grep { /error/i } split /\n/, $out)[0] // (split /\n/, $out)[0] // '')) if $st;
    }
    open my $fh, '<', $gen or return (undef, "cudafe++ wrote nothing");
    my $text = do { local $/; <$fh> };
    return $text;
}

# Every file the preprocessor opens for `file` in any pass (nvcc -M), and the host code, both
# with the build's own command in the build's own folder (the Makefile's; common_dir's parent):
# a file may test the build's macros (_OPENMP, __OPTIMIZE__, __CUDA_ARCH__,
# __CUDA_ARCH_LIST__) and paths relative to the working folder.
sub vet_source {
    my ($file, $lab_dir, $common_dir, @allowed) = @_;
    my @system = system_include_dirs();
    my @roots = map { abs_path($_) } grep { defined && -d } ($lab_dir, $common_dir, @allowed, @system);
    my $root = dirname(abs_path($common_dir));
    my $abs = abs_path($file) // return "it cannot be read";
    my $rel = File::Spec->abs2rel($abs, $root);
    return "it is not inside the tree that builds it ($root)" if $rel =~ m{^\.\./};
    my ($nvcc, @flags) = build_command($root, $rel);
    return "the Makefile does not say how to compile it (make -n " . ("build/$rel" =~ s/\.cu$/.o/r) . ")" unless $nvcc;

    my ($st, $deps) = capture($root, {}, $nvcc, @flags, '-M', $rel);
    return "the preprocessor cannot read it: " . ((grep { /error/i } split /\n/, $deps)[0] // (split /\n/, $deps)[0] // '') if $st;
    $deps =~ s/\\\n/ /g;
    $deps =~ s/^[^:]*://;
    for my $dep (map { s/\\ / /gr } split /(?<!\\)\s+/, $deps) {
        next unless length $dep;
        my $path = abs_path(File::Spec->rel2abs($dep, $root)) // $dep;
        next if $path eq $abs;
        return "it includes $dep: a kernels file may include only the lab's, the harness's and the system's headers"
            unless under($path, @roots);
    }

    # Host code: no assembly (asm embeds files with .incbin, defines symbols and sections, makes
    # system calls) and no renaming of symbols (#pragma redefine_extname hooks nvcc's own
    # registration calls), anywhere in it (line markers are the file's to forge: #line). An asm
    # label, asm("name") after a declarator, only names a symbol (the system headers' do), and the
    # object's symbols are vetted below (not a directive: no leading dot). cudafe++ keeps device
    # bodies in #if 0 blocks: skipped.
    my ($host, $why) = host_code($root, $nvcc, \@flags, $rel);
    return $why unless defined $host;
    my (@if, $live);
    for my $line (split /\n/, $host) {
        if ($line =~ /^\s*#\s*(\w+)\s*(.*)$/) {
            my ($d, $rest) = ($1, $2);
            if ($d eq 'if') { push @if, $rest =~ /^0\s*$/ ? 1 : 0 }
            elsif ($d eq 'ifdef' || $d eq 'ifndef') { push @if, 0 }
            elsif (($d eq 'elif' || $d eq 'else') && @if) { $if[-1] = 0 }
            elsif ($d eq 'endif') { pop @if }
            elsif ($d eq 'pragma' && !grep { $_ } @if) {
                return "its host code renames a symbol (#pragma redefine_extname)" if $rest =~ /^redefine_extname\b/;
            }
            next;
        }
        $live .= "$line\n" unless grep { $_ } @if;
    }
    $live //= '';
    # A section attribute names a section in the assembly GCC writes, as it is: the name can carry
    # assembler directives (.incbin), and sections such as .stub or .iplt land in the program's
    # code. The compiler chooses every section of a kernels file.
    return "its host code places something in a section of its own (a section attribute): the compiler chooses sections"
        if $live =~ /\b_*section_*\s*\(/;
    while ($live =~ /\b(?:asm|__asm|__asm__)\b/g) {
        my ($at, $end) = ($-[0], $+[0]);
        my $before = substr($live, $at > 256 ? $at - 256 : 0, $at > 256 ? 256 : $at);
        my $label = substr($live, $end, 512) =~ /^\s*\(\s*"[A-Za-z_\$][\w.\$@]*"\s*\)/ && $before =~ /[\w)\]]\s*$/;
        return "its host code has assembly (asm): a kernels file may not embed files, make sections or symbols, or make system calls"
            unless $label;
    }
    return undef;
}

# Symbols a kernels file may call: the CUDA runtime functions a launch needs (registration,
# launch, constant memory, function attributes, occupancy, device memory, errors), the C++ ABI
# helpers nvcc's host code calls, libm, and the lab contract (common/harness/lab.h). No copy between
# host and device, no host-accessible memory, no streams or callbacks of its own, no I/O, no
# process or system functions. (exit: cudafe++ gives every __device__ function that is not inline
# or static a host body that calls it, and a program that exits early has no results to show;
# _GLOBAL_OFFSET_TABLE_: the assembler names it in any object that takes an external function's
# address through the GOT; the linker defines it.)
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
    lab_cuda_failed lab_call_failed laplacian_coefficients exit _GLOBAL_OFFSET_TABLE_
);

# A lab's own additions (labs/NAME/symbols.allow, the course's file beside the definition: lab 9
# moves data between host and GPUs and exchanges it between processes). Words; # starts a comment.
sub lab_allowed {
    my ($definition) = @_;  # .../build/labs/NAME/lab.o
    (my $file = $definition) =~ s{build/(labs/[^/]+)/lab\.o$}{$1/symbols.allow};
    return {} if $file eq $definition || !open(my $fh, '<', $file);
    my %add;
    while (my $line = <$fh>) {
        $line =~ s/#.*//;
        $add{$_} = 1 for split ' ', $line;
    }
    return \%add;
}

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

# Global symbols an object or library defines (nm; GNU unique and indirect ones too: libc's
# memset and time, libm's sin and cos are IFUNCs), or references without defining (-u: undefined
# and weak undefined).
sub symbols {
    my ($file, $undefined, $dynamic) = @_;
    my $flags = ($dynamic ? '-D ' : '') . ($undefined ? '-u' : '--defined-only -g');
    my %s;
    for (`nm $flags '$file' 2>/dev/null`) {
        my @f = split ' ';
        next unless @f >= 2;
        my ($type, $name) = @f[-2, -1];
        next if !$undefined && $type !~ /^[A-Ziu]$/;
        $name =~ s/@.*//;
        $s{$name} = 1;
    }
    return \%s;
}

# The files every program is linked with besides its objects: the C runtime's start files, the
# static part of libc, libgcc; and the shared libraries a program built here uses (when
# `program` is not built yet, the usual ones).
sub toolchain_files {
    my @f;
    for my $name (qw(Scrt1.o crt1.o crti.o crtn.o crtbeginS.o crtendS.o crtbegin.o crtend.o libc_nonshared.a)) {
        chomp(my $p = `gcc -print-file-name=$name 2>/dev/null`);
        push @f, $p if $p =~ m{/} && -f $p;
    }
    chomp(my $libgcc = `gcc -print-libgcc-file-name 2>/dev/null`);
    push @f, $libgcc if -f $libgcc;
    return @f;
}

# The symbols of everything else the program links: the definition, the harness, the CUDA
# runtime, the C runtime and libgcc, and the shared libraries of a built program (ldd). Defined
# ones may not be replaced; referenced ones (a hook such as __gmon_start__, which crti.o calls
# before main when something defines it) may not be provided.
my %SYMBOLS;  # file and kind -> symbols (the libraries are the same for every lab)
sub program_symbols {
    my ($program, @objects) = @_;
    my (%defined, %wanted);
    my $add = sub {
        my ($file, $dynamic) = @_;
        my $key = join "\0", $file, $dynamic // 0, (stat $file)[9] // 0;
        $SYMBOLS{$key} //= [ symbols($file, 0, $dynamic), symbols($file, 1, $dynamic) ];
        @defined{ keys %{ $SYMBOLS{$key}[0] } } = ();
        @wanted{ keys %{ $SYMBOLS{$key}[1] } } = ();
    };
    $add->($_) for @objects;
    my $cuda = cuda_root();
    for my $a (grep { -f } "$cuda/lib64/libcudart_static.a", "$cuda/targets/x86_64-linux/lib/libcudart_static.a") {
        $add->($a);
        last;
    }
    $add->($_) for toolchain_files();
    my @shared = map { /=>\s*(\S+)/ && -f $1 ? $1 : () } `ldd '$program' 2>/dev/null`;
    unless (@shared) {
        @shared = grep { m{/} && -f } map { chomp(my $p = `gcc -print-file-name=$_ 2>/dev/null`); $p }
            qw(libc.so.6 libm.so.6 libstdc++.so.6 libgomp.so.1 libgcc_s.so.1);
    }
    $add->($_, 1) for @shared;
    return (\%defined, \%wanted);
}

# The sections of an ELF64 x86-64 relocatable object, [{name, type, flags, size, info}], and its
# symbols, [{name, type, section}]; () if it is not one.
sub elf_contents {
    my ($file) = @_;
    open my $fh, '<:raw', $file or return ();
    my $data = do { local $/; <$fh> };
    return () unless length($data) >= 64 && substr($data, 0, 4) eq "\x7fELF" && unpack('C', substr($data, 4, 1)) == 2
        && unpack('C', substr($data, 5, 1)) == 1;
    my ($type, $machine) = unpack('v v', substr($data, 16, 4));
    return () unless $type == 1 && $machine == 62;  # ET_REL, EM_X86_64
    my $shoff = unpack('Q<', substr($data, 40, 8));
    my ($shentsize, $shnum, $shstrndx) = unpack('v v v', substr($data, 58, 6));
    return () unless $shentsize == 64 && $shoff + 64 <= length $data;
    my @h0 = unpack('V V Q< Q< Q< Q< V V Q< Q<', substr($data, $shoff, 64));
    $shnum = $h0[5] if $shnum == 0;
    $shstrndx = $h0[6] if $shstrndx == 0xffff;
    return () unless $shoff + 64 * $shnum <= length $data && $shstrndx < $shnum;
    my @h = map { [ unpack('V V Q< Q< Q< Q< V V Q< Q<', substr($data, $shoff + 64 * $_, 64)) ] } 0 .. $shnum - 1;
    my $string = sub {
        my ($table, $at) = @_;
        my ($off, $size) = @{ $h[$table] }[4, 5];
        return $at < $size && $off + $size <= length $data ? unpack('Z*', substr($data, $off + $at, $size - $at)) : '';
    };
    my @sections = map { { name => $string->($shstrndx, $_->[0]), type => $_->[1], flags => $_->[2], size => $_->[5],
                           info => $_->[7] } } @h;
    my @symbols;
    for my $symtab (grep { $_->[1] == 2 } @h) {  # SHT_SYMTAB
        my ($off, $size, $link) = @$symtab[4, 5, 6];
        for (my $at = $off; $at + 24 <= $off + $size && $at + 24 <= length $data; $at += 24) {
            my ($name, $info, $other, $shndx) = unpack('V C C v', substr($data, $at, 8));
            push @symbols, { name => $string->($link, $name), type => $info & 0xf, section => $shndx };
        }
    }
    return (\@sections, \@symbols);
}

my ($SHF_WRITE, $SHF_EXECINSTR) = (0x1, 0x4);
my ($SHT_RELA, $SHT_REL, $SHT_INIT_ARRAY, $SHT_FINI_ARRAY, $SHT_PREINIT_ARRAY) = (4, 9, 14, 15, 16);

# What the sections may be: code only in .text*, never writable; nothing the linker runs at
# start or exit (.init, .fini, .preinit_array, .fini_array, .ctors, .dtors) or makes into the
# program's own tables; one .init_array entry (nvcc's registration), with no priority section.
sub vet_sections {
    my ($obj) = @_;
    my ($sections, $symbols) = elf_contents($obj);
    return "it is not an x86-64 ELF object" unless $sections;
    my ($entries, $stack) = (0, 0);
    for my $s (@$sections) {
        my $n = $s->{name};
        return "it has a .$1 section (code run before or after main)" if $n =~ /^\.(init|fini)(\..*)?$/;
        return "it has destructors or early constructors ($n)"
            if $n =~ /^\.(preinit_array|fini_array|ctors|dtors)\b/ || $s->{type} == $SHT_FINI_ARRAY || $s->{type} == $SHT_PREINIT_ARRAY;
        return "it has a $n section: only the linker makes the program's own tables"
            if $n =~ /^\.(interp|dynamic|dynsym|dynstr|hash|gnu\.hash|gnu\.version(_[rd])?|got(\..*)?|plt(\..*)?|rela?\.(dyn|plt)|tm_clone_table|jcr)$/;
        if ($n =~ /^\.init_array(\..*)?$/ || $s->{type} == $SHT_INIT_ARRAY) {
            return "it defines a constructor (code that runs before main): $n" if $n ne '.init_array';
            $entries += int($s->{size} / 8);
        }
        # sections the default linker script puts among the program's code (ld --verbose)
        return "it has a $n section, which the linker places in the program's code"
            if $n =~ /^\.(stub|iplt|gnu\.linkonce\.t\b.*)$/ && !($s->{flags} & $SHF_EXECINSTR);
        if ($s->{flags} & $SHF_EXECINSTR) {
            return "it has code in $n: code belongs in .text" if $n !~ /^\.text(\..*)?$/;
            return "it has writable code ($n)" if $s->{flags} & $SHF_WRITE;
        } elsif ($n =~ /^\.text(\..*)?$/ && $s->{size}) {
            return "it has data in a code section ($n)";
        }
        $stack = $s->{flags} & $SHF_EXECINSTR ? -1 : 1 if $n eq '.note.GNU-stack';
    }
    # Entries of .init_array: by its size, or by its relocations if they are more.
    my $relocs = 0;
    for my $s (@$sections) {
        next unless $s->{type} == $SHT_RELA || $s->{type} == $SHT_REL;
        my $target = $sections->[ $s->{info} ] // next;
        next unless $target->{name} eq '.init_array';
        $relocs += int($s->{size} / ($s->{type} == $SHT_RELA ? 24 : 16));
    }
    $entries = $relocs if $relocs > $entries;
    return "it defines a constructor (code that runs before main)" if $entries > 1;  # nvcc's registration is one
    # Data in a code section: objdump -d shows an object symbol's bytes as data, not as the
    # instructions they are once linked among the code.
    for my $sym (@$symbols) {
        my $s = $sym->{section} < 0xff00 ? $sections->[ $sym->{section} ] : undef;
        return "it has data ($sym->{name}) in a code section ($s->{name})"
            if $s && ($s->{flags} & $SHF_EXECINSTR) && ($sym->{type} == 1 || $sym->{type} == 6);  # STT_OBJECT, STT_TLS
    }
    return "it asks for an executable stack" if $stack <= 0;
    return undef;
}

sub vet_object {
    my ($obj, $program, $definition, @harness) = @_;
    return "it did not compile to an object" unless -f $obj;
    my $u = symbols($obj, 1);
    my $more = lab_allowed($definition);
    my @bad = grep { !$ALLOWED{$_} && !$more->{$_} && !libm_symbol($_) } sort keys %$u;
    return "it calls @bad[0 .. ($#bad < 4 ? $#bad : 4)]: a kernels file may launch kernels and set them up, nothing else"
        if @bad;
    # What the object is made of, before anything (ldd) looks at the program it is linked into.
    my @ifunc = map { (split ' ')[-1] } grep { /^\S*\s+i\s/ } `nm '$obj' 2>/dev/null`;
    return "it defines an indirect function (@ifunc[0 .. ($#ifunc < 4 ? $#ifunc : 4)]), whose resolver runs before main" if @ifunc;
    my $why = vet_sections($obj);
    return $why if $why;
    my $text = `objdump -d --no-show-raw-insn '$obj' 2>/dev/null`;
    return "its host code makes system calls" if $text =~ /\t(syscall|sysenter|int\s+\$0x80)\b/;
    my $interface = symbols($definition, 1);  # what the definition wants from the kernels file
    my ($defined, $wanted) = program_symbols($program, $definition, @harness);
    # Anything the rest of the program defines is taken (the definition's wants include libc's
    # and libm's functions: printf, malloc, sin); a symbol the rest wants may be provided only if
    # it is the definition's interface (launch_V, refuse_V, model_V, setup_kernels).
    # (DW.ref.__gxx_personality_v0: the personality routine's address, which every C++ object
    # with exception tables carries, identical in each.)
    my @clash = grep { !/^DW\.ref\./ && (exists $defined->{$_} || (exists $wanted->{$_} && !$interface->{$_})) } sort keys %{ symbols($obj) };
    return "it defines @clash[0 .. ($#clash < 4 ? $#clash : 4)], which the program already has: a kernels file may not replace a symbol of the harness or a library"
        if @clash;
    return undef;
}
1;
