# suite/vmselftest.sh, run on the host with busybox's sh as the guest runs
# it: the TAP line it makes of a selftest's exit status, and the THP and
# khugepaged settings put back after a program that left its own.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use File::Path qw(make_path);
use VMAB::File qw(slurp spew);

my $sh = -x '/bin/busybox' ? '/bin/busybox sh' : 'sh';
my $script = "$FindBin::Bin/../../suite/vmselftest.sh";
my $tmp = tempdir(CLEANUP => 1);

# A stand-in for /sys/kernel/mm/transparent_hugepage.
my $thp = "$tmp/thp";
make_path("$thp/khugepaged");
spew("$thp/enabled", "always [madvise] never\n");
spew("$thp/defrag", "always defer defer+madvise [madvise] never\n");
spew("$thp/khugepaged/$_->[0]", "$_->[1]\n")
	for [scan_sleep_millisecs => 10000], [pages_to_scan => 4096], [max_ptes_none => 511];

# The runner looks for PROG in vm/ beside itself.
make_path("$tmp/run/vm");
system('cp', $script, "$tmp/run/vmselftest") == 0 or die "cp: $?\n";
sub prog {
	my ($name, $body) = @_;
	spew("$tmp/run/vm/$name", "#!/bin/sh\n$body\n");
	chmod 0755, "$tmp/run/vm/$name";
}
sub run {
	my (@args) = @_;
	my $out = `VMSELFTEST_THP_DIR=$thp $sh $tmp/run/vmselftest @args 2>&1`;
	return ($? >> 8, $out);
}

prog('good', 'echo all fine');
my ($rc, $out) = run(qw(good good));
is($rc, 0, 'a program that exits 0 passes');
like($out, qr/^ok 1 good$/m, '... as one TAP result');
unlike($out, qr/put back/, '... and nothing was put back');

# khugepaged's way of failing: settings written, then exit(EXIT_FAILURE).
prog('leaves', "echo 10 > $thp/khugepaged/scan_sleep_millisecs\n" .
	"echo always > $thp/enabled\necho 'Allocate huge page on fault... Fail'\nexit 1");
($rc, $out) = run(qw(leaves leaves));
is($rc, 1, 'a program that exits 1 fails');
like($out, qr/^not ok 1 leaves # exit status 1$/m, '... with its exit status');
like($out, qr/^# Allocate huge page on fault\.\.\. Fail$/m, '... its output kept as # lines');
like($out, qr/^# vmselftest: leaves left khugepaged\/scan_sleep_millisecs at 10, put back to 10000$/m,
     'a number it left is put back, and said so');
like($out, qr/^# vmselftest: leaves left enabled at always, put back to madvise$/m,
     'a choice it left is put back as the bracketed one');
is(slurp("$thp/khugepaged/scan_sleep_millisecs"), "10000\n", 'scan_sleep_millisecs is back');
is(slurp("$thp/enabled"), "madvise\n", 'enabled is back');
is(slurp("$thp/khugepaged/pages_to_scan"), "4096\n", 'what it did not touch is untouched');

($rc, $out) = run(qw(counted failcount good));
is($rc, 0, 'failcount: exit 0 still passes');
prog('four', 'exit 4');
($rc, $out) = run(qw(four four));
is($rc, 4, 'exit 4 is a skip');
like($out, qr/^ok 1 four # SKIP/m, '... reported as one');
($rc, $out) = run(qw(four failcount four));
is($rc, 1, 'with failcount, exit 4 is four failures');

prog('where', 'grep Cpus_allowed_list /proc/self/status');
($rc, $out) = run(qw(where cpu0 where));
like($out, qr/^# Cpus_allowed_list:\s+0$/m, 'cpu0: the program runs on CPU 0 only');
($rc, $out) = run(qw(where where));
SKIP: {
	skip 'one CPU here', 1 unless `nproc` > 1;
	unlike($out, qr/^# Cpus_allowed_list:\s+0$/m, '... and without it, not');
}

($rc, $out) = run(qw(missing nosuchprog));
like($out, qr/^ok 1 missing # SKIP nosuchprog was not built/m, 'a program not built is a skip');

# needs=: a missing feature is a skip that names it (the lean variant has
# no THP, KSM, memcg or MGLRU); the program does not run.
my $noswap = "$tmp/swaps-none";
my $swaps = "$tmp/swaps-one";
spew($noswap, "Filename\tType\tSize\tUsed\tPriority\n");
spew($swaps, "Filename\tType\tSize\tUsed\tPriority\n/dev/vda\tpartition\t1\t0\t-2\n");
prog('ran', 'echo it ran');
sub run_env {
	my ($env, @args) = @_;
	my $out = `VMSELFTEST_THP_DIR=$thp $env $sh $tmp/run/vmselftest @args 2>&1`;
	return ($? >> 8, $out);
}
($rc, $out) = run_env("VMSELFTEST_KSM_DIR=$tmp/noksm VMSELFTEST_SWAPS=$swaps",
		      qw(k needs=ksm ran));
is($rc, 4, 'needs=ksm without /sys/kernel/mm/ksm: a skip');
like($out, qr/^ok 1 k # SKIP needs CONFIG_KSM \(no \S+\/noksm\)$/m, '... naming CONFIG_KSM');
unlike($out, qr/it ran/, '... and the program did not run');
make_path("$tmp/ksm");
spew("$tmp/ksm/run", "0\n");
($rc, $out) = run_env("VMSELFTEST_KSM_DIR=$tmp/ksm", qw(k needs=ksm ran));
is($rc, 0, 'needs=ksm with it: runs');
like($out, qr/^# it ran$/m, '... the program');
($rc, $out) = run_env("VMSELFTEST_SWAPS=$swaps VMSELFTEST_THP_DIR=$tmp/nothp",
		      ('t', 'needs=thp,swap', 'ran'));
is($rc, 4, 'needs=thp,swap without THP: a skip');
like($out, qr/^ok 1 t # SKIP needs CONFIG_TRANSPARENT_HUGEPAGE \(no \S+\/nothp\)$/m,
     '... naming CONFIG_TRANSPARENT_HUGEPAGE');
($rc, $out) = run_env("VMSELFTEST_SWAPS=$noswap", ('t', 'needs=thp,swap', 'ran'));
is($rc, 4, 'needs=thp,swap with THP, no swap: a skip');
like($out, qr/^ok 1 t # SKIP needs an active swap device$/m, '... for the swap');
($rc, $out) = run_env("VMSELFTEST_SWAPS=$swaps", ('t', 'needs=thp,swap', 'ran'));
is($rc, 0, 'needs=thp,swap with both: runs');
# The series' own selftests: the design's counter in /proc/vmstat says
# whether the kernel has it.
spew("$tmp/vmstat-none", "nr_free_pages 100\npglazyfree 0\n");
spew("$tmp/vmstat-both", "nr_free_pages 100\nnr_lazyfree 0\npgvrange_purged 0\n");
($rc, $out) = run_env("VMSELFTEST_VMSTAT=$tmp/vmstat-none", qw(v needs=vrange ran));
is($rc, 4, 'needs=vrange without pgvrange_purged: a skip');
like($out, qr/^ok 1 v # SKIP needs CONFIG_VRANGE \(no pgvrange_purged in \S+\/vmstat-none\)$/m,
     '... naming CONFIG_VRANGE');
unlike($out, qr/it ran/, '... and the program did not run');
($rc, $out) = run_env("VMSELFTEST_VMSTAT=$tmp/vmstat-none", qw(l needs=madv_free ran));
is($rc, 4, 'needs=madv_free without nr_lazyfree: a skip');
like($out, qr/^ok 1 l # SKIP needs CONFIG_MADV_FREE \(no nr_lazyfree in \S+\/vmstat-none\)$/m,
     '... naming CONFIG_MADV_FREE');
($rc, $out) = run_env("VMSELFTEST_VMSTAT=$tmp/vmstat-both", ('b', 'needs=vrange,madv_free', 'ran'));
is($rc, 0, 'needs=vrange,madv_free with both counters: runs');
like($out, qr/^# it ran$/m, '... the program');
($rc, $out) = run_env('', qw(u needs=gpu ran));
is($rc, 1, 'an unknown need is a failure, not a silent skip');
like($out, qr/^not ok 1 u # unknown needs=gpu/m, '... that says so');

done_testing;
