# The judge: expectations derived from a variant's .config, the exceptions of
# matrix/known.tsv, and every kind of unexpected result.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempfile tempdir);
use VMAB::File qw(spew);
use VMAB::Expectations qw(load_known expect judge);
use VMAB::Tap qw(parse_results);
use VMAB::Variants qw(load_variants);

sub known {
	my (undef, $f) = tempfile(UNLINK => 1);
	spew($f, $_[0]);
	return load_known($f);
}

# Three kernels: one with design A, swap and THP; one with no design; one
# with design C alone.
my %cfg = (
	a => { CONFIG_VRANGE => 'y', CONFIG_MADV_FREE => 'n', CONFIG_SWAP => 'y',
	       CONFIG_TRANSPARENT_HUGEPAGE => 'y' },
	none => { CONFIG_VRANGE => 'n', CONFIG_SWAP => 'y' },
	c => { CONFIG_VRANGE => 'y', CONFIG_MAP_DROPPABLE => 'y', CONFIG_SWAP => 'y' },
);
my $k = known("# comment\nfuzz/vrange_fuzz\t*\t*\tpass\tcalls vrange() everywhere\n" .
	      "p/swap_*\t*\tnoswap-*\tskip\tneeds swap\n");

sub want {
	my ($v, $id, %t) = @_;
	return (expect($k, $v, $cfg{$v}, { test => $id, mode => 'swap-classic', status => 'pass', %t }))[0];
}

# A test's name says nothing: a test that declares no needs (here, none
# does) passes unless its skip reason names what is missing.
is(want('none', 'vrange_test/vr.mark'), 'pass', 'a name that names design A, undeclared: pass where A is off');
is(want('a', 'madvfree_test/hole'), 'pass', '... a name of design B where B is off');
is(want('a', 'scn/scn.vrange.both_designs'), 'pass', '... both_designs');
is(want('none', 'vrange_test/vrange_absent_gives_enosys'), 'pass', '... "absent"');
is(want('a', 'p/ksm_merge'), 'pass', '... an optional feature the kernel lacks');
my (undef, $undeclared) = expect($k, 'a', $cfg{a}, { test => 'p/plain', mode => 'swap-classic', status => 'pass' });
like($undeclared, qr/declares no needs/, '... and the judge says it declares none');
is(want('a', 'p/x', status => 'skip', reason => 'CONFIG_MAP_DROPPABLE=n (mmap(MAP_DROPPABLE) is EINVAL)'),
   'skip', 'the module\'s skip reason for C');
is(want('c', 'p/x', status => 'skip', reason => 'CONFIG_MAP_DROPPABLE=n (mmap(MAP_DROPPABLE) is EINVAL)'),
   'pass', '... where C is on: unexpected');
is(want('none', 'stress/stress_sigbus_counted', status => 'skip', reason => 'no sigbus counter'), 'skip',
   'a SIGBUS named in a reason is design A');

# What a skip's reason names.
my %skip = (status => 'skip');
is(want('a', 'p/x', %skip, reason => 'needs CONFIG_MEMCG (no memory controller)'), 'skip',
   'needs CONFIG_X that the .config lacks: skip');
is(want('a', 'p/x', %skip, reason => 'needs CONFIG_TRANSPARENT_HUGEPAGE (no sysfs)'), 'pass',
   '... that it has: pass (the probe disagrees with .config)');
is(want('none', 'p/x', %skip, reason => 'CONFIG_VRANGE=n'), 'skip', 'CONFIG_X=n');
is(want('a', 'p/x', %skip, reason => 'CONFIG_VRANGE=n or CONFIG_MADV_FREE=n'), 'skip', '... either of two');
is(want('a', 'p/x', %skip, reason => 'vrange() is present (CONFIG_VRANGE=y)'), 'skip',
   'CONFIG_X=y: skips where X is on');
is(want('none', 'p/x', %skip, reason => 'vrange() is present (CONFIG_VRANGE=y)'), 'pass', '... not where it is off');
is(want('none', 'p/x', %skip, reason => 'no vrange()'), 'skip', 'a design named without its option');
is(want('none', 'p/x', %skip, reason => 'needs CONFIG_MAP_DROPPABLE'), 'skip', 'needs CONFIG_MAP_DROPPABLE where it is off');
is(want('c', 'p/x', %skip, reason => 'needs CONFIG_MAP_DROPPABLE'), 'pass', '... not where it is on');
is(want('a', 'p/x', %skip, reason => 'no vrange()'), 'pass', '... that the kernel has');
is(want('a', 'p/x', %skip, reason => 'needs an active swap device', mode => 'noswap-mglru'), 'skip',
   'an active swap device, in a noswap mode');
is(want('a', 'p/x', %skip, reason => 'needs an active swap device'), 'pass', '... in a swap mode');
is(want('a', 'p/x', %skip, reason => 'no huge page was allocated'), 'pass', 'a reason that names nothing');

# matrix/known.tsv comes first.
is(want('none', 'fuzz/vrange_fuzz'), 'pass', 'a known exception');
is(want('a', 'p/swap_out', mode => 'noswap-classic'), 'skip', '... by mode');
is(want('a', 'p/swap_out'), 'pass', '... only there');
my ($w, $why) = expect($k, 'none', $cfg{none}, { test => 'fuzz/vrange_fuzz', mode => 'swap-classic' });
like($why, qr/known\.tsv:2: calls vrange\(\) everywhere/, '... says where and why');

sub run {
	my (@tests) = @_;
	my %progs;
	for my $t (@tests) {
		my $p = $progs{$t->[0]} //= { mode => $t->[0], prog => 'p', rc => 0, planned => 0, ran => 0 };
		$p->{planned}++;
		$p->{ran}++ unless $t->[2] eq 'missing';
	}
	return ([map { { variant => 'a', mode => $_->[0], test => "p/$_->[1]", status => $_->[2],
			 reason => $_->[3] } } grep { $_->[2] ne 'missing' } @tests],
		[values %progs]);
}

my @ok = judge($k, 'a', $cfg{a}, run(['swap-classic', 'vr', 'pass'], ['swap-classic', 'mf', 'skip', 'CONFIG_MADV_FREE=n'],
				     ['noswap-classic', 'vr', 'pass'], ['noswap-classic', 'mf', 'skip', 'CONFIG_MADV_FREE=n']));
is(scalar @ok, 0, 'all as expected') or diag explain \@ok;

my @bad = judge($k, 'a', $cfg{a}, run(['swap-classic', 'a', 'fail'], ['swap-classic', 'b', 'skip', 'needs CONFIG_VRANGE'],
				      ['swap-classic', 'c', 'skip', 'could not']));
my %what = map { ($_->{id} => $_->{what}) } @bad;
is($what{'p/a'}, 'unexpected failure', 'failure caught');
is($what{'p/b'}, 'unexpected skip', 'a skip naming an option the .config has');
is($what{'p/c'}, 'unexpected skip', 'a skip naming nothing');
my ($fb) = grep { $_->{id} eq 'p/b' } @bad;
is($fb->{why}[0], 'it skipped for want of CONFIG_VRANGE, which this variant and mode have', '... with why');
my ($fa) = grep { $_->{id} eq 'p/a' } @bad;
is_deeply($fa->{why}, [], 'a failure carries why, empty when the test said nothing');
my ($r, $p) = run(['swap-classic', 'a', 'fail']);
$r->[0]{excerpt} = ['p.c:9:a:Expected 1 (1) == x (0)'];
($fa) = judge($k, 'a', $cfg{a}, $r, $p);
is_deeply($fa->{why}, ['p.c:9:a:Expected 1 (1) == x (0)'], '... and the test\'s own words when it said some');

# Missing: a test another mode reported, or fewer results than planned.
@bad = judge($k, 'a', $cfg{a}, run(['swap-classic', 'x', 'pass'], ['swap-classic', 'y', 'pass'],
				   ['noswap-classic', 'x', 'pass'], ['noswap-classic', 'z', 'missing']));
is_deeply([sort map { "$_->{mode} $_->{id} $_->{what} $_->{want}" } @bad],
	  ['noswap-classic p/* missing test 2 results', 'noswap-classic p/y missing test pass'],
	  'missing tests caught, by name and by count');
@bad = judge($k, 'a', $cfg{a}, [], []);
is(scalar @bad, 0, 'programs that did not run are not expected');
($r, $p) = run(['swap-classic', 'x', 'pass']);
push @$r, $r->[0];
is((judge($k, 'a', $cfg{a}, $r, $p))[0]{what}, 'reported twice', 'a test reported twice');

# A benchmark timed by a jiffies clock is flagged; a test program is not,
# nor a benchmark on a TSC, nor a log from before /init named its clock.
$r = parse_results(<<'EOT');
@@vmab hello variant=a kernel=k modes=swap-classic clocksource=tsc-early
@@vmab begin mode=swap-classic prog=bench_mark
1..1
ok 1 mark_cost
@@vmab end mode=swap-classic prog=bench_mark rc=0 ms=20 clocksource=tsc
@@vmab begin mode=swap-classic prog=bench_churn
1..1
ok 1 churn
@@vmab end mode=swap-classic prog=bench_churn rc=0 ms=20 clocksource=refined-jiffies
@@vmab begin mode=swap-classic prog=base_test
1..1
ok 1 base
@@vmab end mode=swap-classic prog=base_test rc=0 ms=20 clocksource=refined-jiffies
@@vmab begin mode=swap-classic prog=bench_pressure
1..1
ok 1 pressure
@@vmab end mode=swap-classic prog=bench_pressure rc=0 ms=20
@@vmab done
EOT
@bad = judge($k, 'a', $cfg{a}, [], $r->{programs});
is_deeply([map { "$_->{mode} $_->{id} $_->{what}: want $_->{want}, got $_->{got}" } @bad],
	  ['swap-classic bench_churn/* benchmark timed by jiffies: want a TSC clock, got refined-jiffies'],
	  'a benchmark that ended on refined-jiffies, alone');
like($bad[0]{why}[0], qr/^the guest's clocksource was refined-jiffies when bench_churn ended: .*4 ms steps/,
     '... saying why');
$r->{programs}[1]{clocksource} = 'jiffies';
is(scalar(() = judge($k, 'a', $cfg{a}, [], $r->{programs})), 1, '... plain jiffies too');
$r->{programs}[1]{clocksource} = 'tsc-early';
is(scalar(() = judge($k, 'a', $cfg{a}, [], $r->{programs})), 0, 'tsc-early is a TSC');

eval { known("p/a\t*\t*\tpass\n") };
like($@, qr/five tab-separated/, 'a line without its why is an error');
eval { known("p/a  *  *  pass  spaces\n") };
like($@, qr/five tab-separated/, 'spaces are not tabs');
eval { known("p/a\t*\t*\tfail\tno\n") };
like($@, qr/bad outcome/, 'fail is never expected');

# The real exceptions: few, each with a reason, none naming a variant that
# is not in the table.
my $real = load_known("$FindBin::Bin/../known.tsv");
cmp_ok(scalar @$real, '<=', 10, 'matrix/known.tsv is short');
my @names = map { $_->{name} } @{load_variants()};
for my $row (@$real) {
	ok(scalar(grep { $_ =~ $row->{variant} } @names), "known.tsv:$row->{line} matches a variant");
}
# Declared needs (VMAB::Needs) come before the name and the skip reason.
{
	my $suite = tempdir(CLEANUP => 1);
	spew("$suite/drop_test.c", <<'EOC');
VMAB_NEEDS("droppable_*", "CONFIG_MAP_DROPPABLE");
VMAB_NEEDS("droppable_swapped", "swap");
VMAB_NEEDS("vrange_fuzz", "");
VMAB_NEEDS("lru_only", "mglru,no_vrange");
VMAB_NEEDS("drop_fork", "droppable,memcg");
VMAB_NEEDS("both_*", "vrange");
VMAB_NEEDS("both_ways", "no_vrange");
EOC
	spew("$suite/sng.sh", qq{#!/bin/sh\n# VMAB_NEEDS("*", "");\n# VMAB_NEEDS("ksm", "ksm");\nVMAB_NEEDS("not_a_comment", "ksm");\n});
	spew("$suite/selftests.list", "once vmselftest khugepaged timeout=600 needs=thp,swap failcount cpu0 khugepaged\n" .
	     "once vmselftest compaction_test compaction_test\n");
	my $dk = load_known((tempfile(UNLINK => 1))[1], $suite);
	my %c = (drop => { CONFIG_MAP_DROPPABLE => 'y', CONFIG_SWAP => 'y', CONFIG_TRANSPARENT_HUGEPAGE => 'y' },
		 old => { CONFIG_VRANGE => 'y', CONFIG_SWAP => 'y' });
	my $w = sub {
		my ($v, $id, $mode, %t) = @_;
		return (expect($dk, $v, $c{$v}, { test => "drop_test/$id", mode => $mode, status => 'pass', %t }))[0];
	};
	is($w->('drop', 'droppable_basic', 'noswap-classic'), 'pass', 'declared CONFIG_MAP_DROPPABLE, on: pass');
	is($w->('old', 'droppable_basic', 'noswap-classic'), 'skip', '... off: skip');
	is($w->('drop', 'droppable_swapped', 'noswap-classic'), 'skip', 'two declarations add up: swap in a noswap mode');
	is($w->('drop', 'droppable_swapped', 'swap-mglru'), 'pass', '... and with swap: pass');
	is($w->('old', 'vrange_fuzz', 'swap-classic'), 'pass', 'a name that says vrange, declared to need nothing');
	is($w->('drop', 'vrange_fuzz', 'swap-classic'), 'pass', '... on a kernel without vrange too');
	is($w->('drop', 'vrange_fuzz', 'swap-classic', status => 'skip', reason => 'needs CONFIG_VRANGE'), 'pass',
	   'a declaration settles it: a skip naming what it does not declare is unexpected');
	is($w->('old', 'vrange_fuzz', 'swap-classic', status => 'skip', reason => 'needs CONFIG_VRANGE'), 'pass',
	   '... even where that option is on');
	is($w->('old', 'droppable_basic', 'swap-classic', status => 'skip', reason => 'needs CONFIG_MEMCG (no memory controller)'),
	   'pass', '... even where a declared need is unmet: the declaration does not say when the test runs');
	my (undef, $ow) = expect($dk, 'old', $c{old}, { test => 'drop_test/droppable_basic', mode => 'swap-classic',
						 status => 'skip', reason => 'needs CONFIG_MEMCG (no memory controller)' });
	like($ow, qr{skipped for want of CONFIG_MEMCG, which its declaration \(suite/drop_test\.c:1\) does not list},
	     '... saying which need and which declaration');
	is($w->('old', 'droppable_basic', 'swap-classic', status => 'skip',
		reason => 'CONFIG_MAP_DROPPABLE=n (mmap(MAP_DROPPABLE) is EINVAL)'), 'skip', 'a skip naming the declared need: expected');
	is($w->('drop', 'droppable_swapped', 'noswap-classic', status => 'skip', reason => 'no swap device active'), 'skip',
	   '... a declared swap device');
	is($w->('drop', 'droppable_basic', 'swap-classic', status => 'skip', reason => 'CONFIG_MAP_DROPPABLE=y: it maps'),
	   'pass', 'a reason naming the declared option the other way is unexpected');
	is($w->('drop', 'drop_fork', 'swap-classic'), 'skip', 'droppable is a short name: CONFIG_MAP_DROPPABLE, memcg off here');
	$c{drop}{CONFIG_MEMCG} = 'y';
	is($w->('drop', 'drop_fork', 'swap-classic'), 'pass', '... and on');
	is($w->('old', 'drop_fork', 'swap-classic'), 'skip', '... no CONFIG_MAP_DROPPABLE: skip');
	is($w->('old', 'both_x', 'swap-classic'), 'pass', 'a glob\'s needs');
	my ($bw, $bwhy) = expect($dk, 'old', $c{old}, { test => 'drop_test/both_ways', mode => 'swap-classic', status => 'pass' });
	like($bwhy, qr{disagree: CONFIG_VRANGE on at suite/drop_test\.c:6, off at suite/drop_test\.c:7}, 'two declarations that disagree: said');
	is($w->('old', 'undeclared', 'swap-classic'), 'pass', 'a test no line declares: pass');
	is($w->('old', 'undeclared', 'swap-classic', status => 'skip', reason => 'needs CONFIG_MAP_DROPPABLE'), 'skip',
	   '... or a skip for what its reason names and the kernel lacks');
	my $sng = sub { (expect($dk, $_[0], $c{$_[0]}, { test => "sng/$_[1]", mode => 'swap-classic', status => $_[2] // 'pass',
						    reason => 'needs CONFIG_KSM (no /sys/kernel/mm/ksm)' }))[0] };
	is($sng->('old', 'ksm', 'skip'), 'skip', 'a shell program\'s declaration in a comment');
	is($sng->('old', 'vm'), 'pass', '... "*" declares the rest');
	is($sng->('old', 'not_a_comment', 'skip'), 'pass', '... a line that is not a comment declares nothing: only "*" matches');
	my @bad = judge($dk, 'old', $c{old}, [{ test => 'drop_test/droppable_basic', mode => 'swap-classic', status => 'pass' }], []);
	is_deeply([map { "$_->{what}: want $_->{want}" } @bad], ['unexpected pass: want skip'],
		  'the judge: a pass of a test that declares an option the .config lacks');
	is($w->('drop', 'lru_only', 'swap-mglru'), 'pass', 'mglru and an option off: met');
	is($w->('drop', 'lru_only', 'swap-classic'), 'skip', 'the classic LRU where MGLRU is declared: skip');
	is($w->('old', 'lru_only', 'swap-mglru'), 'skip', 'vrange on where no_vrange is declared: skip');
	my ($want, $why) = expect($dk, 'old', $c{old}, { test => 'drop_test/droppable_basic', mode => 'swap-classic', status => 'pass' });
	like($why, qr{declares \(suite/drop_test\.c:1\).*CONFIG_MAP_DROPPABLE=n}, '... the reason names the line and the need');
	my $sw = sub { (expect($dk, 'drop', $c{drop}, { test => "vmselftest/$_[0]", mode => $_[1], status => 'pass' }))[0] };
	is($sw->('khugepaged', 'noswap-classic'), 'skip', 'selftests.list needs=thp,swap: skip without swap');
	is($sw->('khugepaged', 'swap-classic'), 'pass', '... pass with it');
	is($sw->('compaction_test', 'swap-classic'), 'pass', 'a selftest without needs= needs nothing');
	spew("$suite/bad_test.c", qq{VMAB_NEEDS("x", "frobnicate");\n});
	like((eval { load_known((tempfile(UNLINK => 1))[1], $suite) }, $@), qr{bad_test\.c:1: unknown need 'frobnicate'},
	     'an unknown need stops the judge, naming its line');
}
done_testing;
