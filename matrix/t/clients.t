# Real clients in the guest (a real allocator and a load generator, not
# only our own programs): the host files and ldd closure that
# VMAB::Guest copies into the initramfs, and what the judge derives from the
# names and skip reasons of bench_jemalloc and stressng.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempdir);
use VMAB::File qw(spew slurp);
use VMAB::Guest qw(ldd_closure copy_host_files read_host_files);
use VMAB::Expectations qw(load_known expect);
use VMAB::Report::Bench;

my $top = "$FindBin::Bin/../..";
my $tmp = tempdir(CLEANUP => 1);

# ---- ldd_closure ----
# perl itself is dynamically linked on Debian: its closure has libc and the
# dynamic loader, and perl (a host file under /usr) itself.
my $perl = -e '/usr/bin/perl' ? '/usr/bin/perl' : $^X;
my @c = ldd_closure($perl);
ok((grep { $_ eq $perl } @c), 'a host file is in its own closure');
ok((grep { m{/libc\.so\.6$} } @c), 'the closure of a dynamic program has libc');
ok((grep { m{/ld-linux[^/]*\.so\.\d+$} } @c), '... and the dynamic loader');
ok(!(grep { /vdso/ } @c), '... and no linux-vdso (it has no file)');
is_deeply([ldd_closure($perl, $perl)], \@c, 'each path once');
is_deeply([sort @c], \@c, 'sorted');

# A script or a built program (not under a system folder) adds nothing of
# its own; a script has no libraries.
my $script = "$tmp/prog.sh";
spew($script, "#!/bin/sh\necho hi\n");
chmod 0755, $script;
is_deeply([ldd_closure($script)], [], 'a script under a build folder: nothing');
SKIP: {
	skip 'no busybox-static', 1 unless -x '/bin/busybox' && `file -L /bin/busybox` =~ /statically/;
	is_deeply([ldd_closure('/bin/busybox')], ['/bin/busybox'],
		  'a static host program: itself only');
}
# A dynamic program built under a build folder: its libraries, not itself.
SKIP: {
	skip 'no cc', 3 unless system('sh', '-c', 'command -v cc >/dev/null') == 0;
	spew("$tmp/hello.c", "#include <stdio.h>\nint main(void){puts(\"hi\");return 0;}\n");
	system('cc', '-o', "$tmp/hello", "$tmp/hello.c") == 0 or skip 'cc failed', 3;
	my @h = ldd_closure("$tmp/hello");
	ok(!(grep { $_ eq "$tmp/hello" } @h), 'a built program is not in its closure');
	ok((grep { m{/libc\.so\.6$} } @h), '... its libc is');
	# ... and it runs from a root holding only that closure (the guest's
	# view), under the copied loader.
	my $root = "$tmp/root";
	copy_host_files($root, @h);
	my ($ld) = grep { m{/ld-linux} } @h;
	my $libdirs = join ':', map { "$root$_" } sort { $a cmp $b }
		keys %{{ map { (m{^(.*)/[^/]+$})[0] => 1 } @h }};
	is(`'$root$ld' --library-path '$libdirs' '$tmp/hello'`, "hi\n",
	   'the copied closure runs the program');
}

# ---- copy_host_files ----
{
	my $root = "$tmp/r2";
	# A symbolic link is followed: the file's contents at the link's path.
	mkdir "$tmp/src";
	spew("$tmp/src/real", "contents\n");
	chmod 0750, "$tmp/src/real";
	symlink("$tmp/src/real", "$tmp/src/link") or die;
	copy_host_files($root, "$tmp/src/link");
	ok(-f "$root$tmp/src/link" && !-l "$root$tmp/src/link", 'a link copied as a file, at its path');
	is(slurp("$root$tmp/src/link"), "contents\n", '... with the target\'s contents');
	is((stat "$root$tmp/src/link")[2] & 07777, 0750, '... and its permission bits');
	eval { copy_host_files($root, "$tmp/src/absent") };
	like($@, qr/copy .*absent/, 'a missing file dies, naming it');
}

# ---- read_host_files ----
{
	my $f = "$tmp/host-files.txt";
	spew($f, "# comment\n\n$perl\tperl: a reason\n");
	is_deeply([read_host_files($f)], [$perl], 'paths, comments and reasons left out');
	spew($f, "relative/path\n");
	eval { read_host_files($f) };
	like($@, qr/:1: relative\/path is not an absolute path/, 'a relative path dies');
	spew($f, "/no/such/file.so\n");
	eval { read_host_files($f) };
	like($@, qr{no /no/such/file\.so on this machine \(make deps}, 'a missing host file dies, saying how to install it');
	is_deeply([read_host_files("$tmp/none.txt")], [], 'no list: nothing');
	# The project's own list names absolute paths, each with a reason.
	my @lines = grep { !/^\s*(#|$)/ } split /\n/, slurp("$top/suite/host-files.txt");
	ok(@lines >= 2, 'suite/host-files.txt lists libjemalloc and stress-ng');
	like($_, qr{^/\S+\t\S.*}, "host file with a reason: $_") for @lines;
}

# ---- the judge on the clients' results ----
my $known = load_known("$top/matrix/known.tsv", "$top/suite");
my %cfg = (
	both => { CONFIG_VRANGE => 'y', CONFIG_MADV_FREE => 'y', CONFIG_SWAP => 'y',
		  CONFIG_MEMCG => 'y', CONFIG_KSM => 'y', CONFIG_TRANSPARENT_HUGEPAGE => 'y' },
	none => { CONFIG_VRANGE => 'n', CONFIG_MADV_FREE => 'n', CONFIG_SWAP => 'y',
		  CONFIG_MEMCG => 'y', CONFIG_KSM => 'y' },
	lean => { CONFIG_VRANGE => 'y', CONFIG_MADV_FREE => 'y', CONFIG_SWAP => 'y',
		  CONFIG_MEMCG => 'n', CONFIG_KSM => 'n' },
);
sub want {
	my ($v, $id, %t) = @_;
	return (expect($known, $v, $cfg{$v}, { test => $id, mode => 'swap-classic', status => 'pass', %t }))[0];
}
my $memcg_why = 'needs CONFIG_MEMCG (no memory controller in /sys/fs/cgroup/cgroup.controllers)';
for my $v (qw(both none lean)) {
	# jemalloc's lazy purge falls back without MADV_FREE: a pass everywhere.
	is(want($v, "bench_jemalloc/jemalloc_$_"), 'pass', "$v: jemalloc_$_ passes")
		for qw(lazy_purge forced_purge);
	is(want($v, 'stressng/madvise'), 'pass', "$v: stressng/madvise passes");
	is(want($v, 'stressng/userfaultfd'), 'pass', "$v: stressng/userfaultfd passes");
}
for my $v (qw(both none)) {
	is(want($v, 'bench_jemalloc/jemalloc_lazy_purge_memcg'), 'pass', "$v: the memcg runs pass");
	is(want($v, 'bench_jemalloc/jemalloc_lazy_purge_memcg', status => 'skip', reason => $memcg_why),
	   'pass', "$v: a memcg skip is unexpected where CONFIG_MEMCG=y");
	is(want($v, 'stressng/ksm'), 'pass', "$v: stressng/ksm passes");
}
is(want('lean', 'bench_jemalloc/jemalloc_lazy_purge_memcg', status => 'skip', reason => $memcg_why),
   'skip', 'lean: the memcg runs skip (CONFIG_MEMCG=n)');
is(want('lean', 'bench_jemalloc/jemalloc_forced_purge_memcg', status => 'skip', reason => $memcg_why),
   'skip', 'lean: ... both of them');
is(want('lean', 'stressng/ksm', status => 'skip', reason => 'needs CONFIG_KSM (no /sys/kernel/mm/ksm)'),
   'skip', 'lean: stressng/ksm skips (CONFIG_KSM=n)');
is(want('both', 'stressng/vm', status => 'skip', reason => 'stress-ng exit status 4'),
   'pass', 'a stressor skipping for a reason naming nothing is unexpected');

# ---- the lists run them ----
like(slurp("$top/suite/run.list"), qr/^bench_jemalloc\b.*\n(?:.*\n)*?^once stressng\b/m,
     'make check runs bench_jemalloc in every mode, stressng once');
like(slurp("$top/suite/bench.list"), qr/^bench_jemalloc\b/m, 'make bench runs bench_jemalloc');
like(slurp("$top/suite/stress.list"), qr/^once stressng\b/m, 'make stress runs stressng once');
like(slurp("$top/tools/install-deps.sh"), qr/\blibjemalloc2\b.*\bstress-ng\b/s,
     'install-deps installs libjemalloc2 and stress-ng');

# ---- the report's table ----
{
	my @d = (
		{ kind => 'bench', bench => 'jemalloc', config => 'forced', cgroup => 'none',
		  ops_per_s => 2591.05, pglazyfree => 0, pglazyfreed => 0, corrupted => 0 },
		{ kind => 'bench', bench => 'jemalloc', config => 'lazy', cgroup => 'none',
		  ops_per_s => 3060.24, ratio_to_forced => 1.18108, pglazyfree => 14766,
		  pglazyfreed => 0, corrupted => 0 },
		{ kind => 'bench', bench => 'jemalloc', config => 'forced', cgroup => 'memcg',
		  memory_max => '24M', ops_per_s => 653.9, pglazyfree => 0, pglazyfreed => 0, corrupted => 0 },
		{ kind => 'bench', bench => 'jemalloc', config => 'lazy', cgroup => 'memcg',
		  memory_max => '24M', ops_per_s => 1209.5, pglazyfree => 12772, pglazyfreed => 1307,
		  corrupted => 2 },
	);
	my $m = { variants => { both => { modes => { 'swap-classic' => { data => \@d } } } } };
	my $md = VMAB::Report::Bench::jemalloc_section(VMAB::Report::Bench::collect($m, 'jemalloc'));
	like($md, qr/^### A real client: jemalloc$/m, 'report: a jemalloc section');
	like($md, qr/^\| both \| swap-classic \| none \| 3060 \| 2591 \| 1.18x \| 14766 \| 0 \| 0 \| 0 \|$/m,
	     'report: unconstrained row, lazy/forced ratio and the pglazyfree deltas');
	like($md, qr/^\| both \| swap-classic \| memory.max 24M \| 1210 \| 654 \| 1.85x \| 12772 \| 0 \| 1307 \| \*\*2\*\* \|$/m,
	     'report: memcg row, ratio computed, corruption in bold');
	like(VMAB::Report::Bench::jemalloc_section({}), qr/No jemalloc figures/, 'report: none in the run');
}

{
	my $m = { variants => {
		both => { modes => { 'swap-classic' => { data => [
			{ kind => 'stressng', stressor => 'madvise', rc => 0, bogo_ops_per_s => 1.02 },
			{ kind => 'stressng', stressor => 'ksm', rc => 0, bogo_ops_per_s => 6647.19 },
			{ kind => 'stressng', stressor => 'vm', rc => 2, bogo_ops_per_s => 10 } ] } } },
		lean => { modes => { 'swap-classic' => { data => [
			{ kind => 'stressng', stressor => 'madvise', rc => 0, bogo_ops_per_s => 1.21 } ] } } },
	} };
	my $md = VMAB::Report::Bench::stressng_section(VMAB::Report::Bench::collect_stressng($m));
	like($md, qr/^### A second opinion: stress-ng$/m, 'report: a stress-ng section');
	like($md, qr/^\| stressor \| both \| lean \|$/m, 'report: a column per variant, in the table\'s order');
	like($md, qr/^\| madvise \| 1.0\/s \| 1.2\/s \|\n\| vm \| \*\*exit 2\*\* \| - \|\n\| ksm \| 6647\/s \| - \|$/m,
	     'report: stressors in order, a failure in bold, none where it did not run');
	like(VMAB::Report::Bench::stressng_section({}), qr/No stress-ng figures/, 'report: none in the run');
}

done_testing;
