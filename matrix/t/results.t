# The driver's exit status (SPEC 7): make matrix fails when a variant is not
# PASS; make check (--judge) also when a result is unexpected.
use strict;
use warnings;
use Test::More;
use FindBin;
use VMAB::File qw(slurp);
use VMAB::Results qw(exit_status);
use VMAB::Record qw(variant_record);
use VMAB::Protocol qw(frame);
use VMAB::Tap qw(parse_results);

my $m = { variants => {
	a => { outcome => 'PASS', problems => [] },
	b => { outcome => 'PASS', problems => [{ mode => 'swap-mglru', id => 'p/x' }] },
	f => { outcome => 'FAIL', problems => [map { { mode => 'm', id => "p/t$_" } } 1 .. 7] },
	c => { outcome => 'BUILDFAIL', problems => [] },
	d => { outcome => 'PANIC', problems => [] },
} };
is_deeply([exit_status($m, ['a'])], [0], 'all PASS: 0');
is_deeply([exit_status($m, ['a'], judge => 1)], [0], '... judged too');
is_deeply([exit_status($m, ['a', 'b'])], [0, 'b (PASS, 1 unexpected: swap-mglru p/x)'],
	  'an unexpected result without --judge: 0, and named');
is_deeply([exit_status($m, ['a', 'b'], judge => 1)], [1, 'b (PASS, 1 unexpected: swap-mglru p/x)'], '... with --judge: 1');
is_deeply([exit_status($m, ['f'])], [1, 'f (FAIL, 7 unexpected: m p/t1, m p/t2, m p/t3, m p/t4, m p/t5, ...)'],
	  'the first five unexpected results named, the rest elided');
is_deeply([exit_status($m, ['a', 'c'])], [1, 'c (BUILDFAIL)'], 'BUILDFAIL: 1 without --judge');
is_deeply([exit_status($m, ['d', 'a'])], [1, 'd (PANIC)'], 'PANIC: 1 without --judge');
is_deeply([exit_status($m, ['e'])], [1, 'e (MISSING)'], 'a variant with no record: 1');

# matrix.json keeps the guest's clocksource: per program, the one the run
# ended on, and every one it named in order.
sub record {
	my ($text) = @_;
	return variant_record(parsed => parse_results($text), outcome => 'PASS',
			      problems => [], phases => {}, release => 'r');
}
my $x = record(slurp("$FindBin::Bin/fixtures/clock.results"));
is($x->{clocksource}, 'refined-jiffies', 'the clocksource the run ended on');
is_deeply($x->{clocksources}, ['tsc-early', 'tsc', 'refined-jiffies'], 'every one named, in order, once');
is_deeply($x->{modes}{m}{programs}{bench_mark}, { rc => 0, ms => 20, planned => 1, ran => 1, clocksource => 'tsc' },
	  'each program with its own');
$x = record("\@\@vmab hello variant=v kernel=k modes=m clocksource=tsc\n" .
	    "\@\@vmab begin mode=m prog=a\n1..1\nok 1 x\n" .
	    "\@\@vmab end mode=m prog=a rc=0 ms=20 clocksource=refined-jiffies\n");
is($x->{clocksource}, 'refined-jiffies', 'a clock switched mid-run: the last one');
is_deeply($x->{clocksources}, ['tsc', 'refined-jiffies'], '... after the first');
$x = record("\@\@vmab hello variant=v kernel=k modes=m\n\@\@vmab begin mode=m prog=a\n1..1\nok 1 x\n" .
	    "\@\@vmab end mode=m prog=a rc=0 ms=20\n");
ok(!exists $x->{clocksource} && !exists $x->{clocksources}, 'a log from before the clock lines: no clock');
is_deeply($x->{modes}{m}{programs}{a}, { rc => 0, ms => 20, planned => 1, ran => 1 }, '... and no key per program');
done_testing;
