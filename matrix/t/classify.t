# Outcome classification on console logs recorded from real boots of broken
# kernels and initramfs images (vmab boot --fixtures made them).
use strict;
use warnings;
use Test::More;
use FindBin;
use VMAB::Classify qw(classify find_splats);
use VMAB::File qw(slurp);
use VMAB::Tap qw(parse_results);

my $fx = "$FindBin::Bin/fixtures";
sub outcome {
	my ($name, %o) = @_;
	return classify(console => slurp("$fx/$name.console"),
			results => parse_results(slurp("$fx/$name.results")), %o);
}

my $c = outcome('clean');
is($c->{outcome}, 'PASS', 'clean boot: PASS') or diag explain $c;
is_deeply($c->{splats}, [], 'clean boot: no splat');

$c = outcome('panic');
is($c->{outcome}, 'PANIC', 'no init: PANIC');
is($c->{why}[0], 'kernel panic: VFS: Unable to mount root fs on unknown-block(0,0)', 'panic reason');

$c = outcome('hang', timed_out => 1);
is($c->{outcome}, 'TIMEOUT', 'init hangs: TIMEOUT');

$c = outcome('bootfail', timed_out => 1);
is($c->{outcome}, 'BOOTFAIL', 'truncated kernel: BOOTFAIL');

$c = outcome('oom');
like(slurp("$fx/oom.console"), qr/Call Trace:/, 'the OOM fixture has a stack dump');
is_deeply($c->{splats}, [], 'an OOM kill is not a splat');
is($c->{outcome}, 'PASS', 'OOM kill with the suite finished: PASS');

$c = outcome('flood', timed_out => 1);
is($c->{outcome}, 'TIMEOUT', 'flood without a done line: TIMEOUT');

# A splat fails a boot whose tests all passed.
my $console = slurp("$fx/clean.console") .
	"[   12.3] WARNING: CPU: 0 PID: 50 at mm/memory.c:3747 handle_pte_marker+0x1/0x2\n" .
	"[   12.3] Call Trace:\n";
$c = classify(console => $console, results => parse_results(slurp("$fx/clean.results")));
is($c->{outcome}, 'FAIL', 'splat with passing tests: FAIL');
is_deeply($c->{splats}, ['WARNING: CPU: 0 PID: 50 at mm/memory.c:3747 handle_pte_marker+0x1/0x2',
			 'Call Trace:'], 'splat lines reported');
for my $l ('BUG: KASAN: use-after-free in foo', 'BUG: sleeping function called from invalid context',
	   'WARNING: possible circular locking dependency detected',
	   'general protection fault, probably for non-canonical address') {
	is(scalar find_splats("$l\n"), 1, "splat: $l");
}
# WARNING inside an OOM report is still a splat.
is(scalar find_splats("x invoked oom-killer: gfp\nWARNING: at foo\nCall Trace:\n"), 1,
   'WARNING inside an OOM report counts');
# A memcg OOM that finds its victim already dying ends without a kill; a
# stack after it is a splat again (memory.max lowered below the usage:
# suite/reclaim_test.c).
is_deeply([find_splats("x invoked oom-killer: gfp\nCall Trace:\n" .
		       "Out of memory and no killable processes...\n" .
		       "BUG: kernel NULL pointer dereference\nCall Trace:\n")],
	  ['BUG: kernel NULL pointer dereference', 'Call Trace:'],
	  'an OOM report without a kill ends where it says so');

# /init giving up on a mode is a failure, not a timeout.
$c = classify(console => '', results => parse_results("\@\@vmab hello variant=x\n\@\@vmab error mode swap-mglru: swapon failed\n"));
is($c->{outcome}, 'FAIL', 'guest error: FAIL');
is_deeply($c->{why}, ['guest error: mode swap-mglru: swapon failed'], '... with the reason');

# A test failure or a crashed program fails the boot.
my $res = parse_results(slurp("$fx/clean.results") =~ s/^ok 1 global/not ok 1 global/mr);
is(classify(console => '', results => $res)->{outcome}, 'FAIL', 'a failed test: FAIL');
$res = parse_results(slurp("$fx/clean.results") =~ s/rc=0 ms=880/rc=139 ms=880/r);
$c = classify(console => '', results => $res);
is($c->{outcome}, 'FAIL', 'a crashed program: FAIL');
like(join(' ', @{$c->{why}}), qr/exit status 139/, '... named');

# Exit status 4 (KSFT_SKIP) is clean only when that run skipped everything.
my $one = sub {
	my ($tap, $rc) = @_;
	return classify(console => '', results => parse_results(
		"\@\@vmab hello variant=x\n" .
		"\@\@vmab begin mode=noswap-classic prog=vmselftest\n" .
		"TAP version 13\n1..1\nok 1 a\n" .
		"\@\@vmab end mode=noswap-classic prog=vmselftest rc=0 ms=10\n" .
		"\@\@vmab begin mode=noswap-classic prog=vmselftest\n" .
		"TAP version 13\n1..1\n$tap\n" .
		"\@\@vmab end mode=noswap-classic prog=vmselftest rc=$rc ms=10\n" .
		"\@\@vmab done\n"));
};
is($one->('ok 1 b # SKIP needs swap', 4)->{outcome}, 'PASS', 'exit 4 after a skip: PASS');
$c = $one->('ok 1 b', 4);
is($c->{outcome}, 'FAIL', 'exit 4 after a pass: FAIL');
like(join(' ', @{$c->{why}}), qr/vmselftest: exit status 4/, '... named');
is($one->('ok 1 b # SKIP x', 2)->{outcome}, 'FAIL', 'exit 2 after a skip: FAIL');

# The guest names the variant it was booted as; another name is a FAIL.
my ($said) = slurp("$fx/clean.results") =~ /hello variant=(\S+)/;
is(outcome('clean', variant => $said)->{outcome}, 'PASS', 'the variant the guest names is the one booted: PASS');
$c = outcome('clean', variant => 'both');
is($c->{outcome}, 'FAIL', 'another variant booted: FAIL');
is($c->{why}[0], "the guest says it is variant '$said', but both was booted", '... saying which');
$c = outcome('hang', timed_out => 1, variant => 'both');
is($c->{outcome}, 'TIMEOUT', '... a worse outcome stands');
like($c->{why}[0], qr/but both was booted/, '... with the mismatch first');
is(outcome('bootfail', timed_out => 1, variant => 'both')->{outcome}, 'BOOTFAIL',
   'no hello: nothing to compare');
done_testing;
