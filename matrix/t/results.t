# The driver's exit status (SPEC 7): make matrix fails when a variant is not
# PASS; make check (--judge) also when a result is unexpected.
use strict;
use warnings;
use Test::More;
use VMAB::Results qw(exit_status);

my $m = { variants => {
	a => { outcome => 'PASS', problems => [] },
	b => { outcome => 'PASS', problems => [{ id => 'p/x' }] },
	c => { outcome => 'BUILDFAIL', problems => [] },
	d => { outcome => 'PANIC', problems => [] },
} };
is_deeply([exit_status($m, ['a'])], [0], 'all PASS: 0');
is_deeply([exit_status($m, ['a'], judge => 1)], [0], '... judged too');
is_deeply([exit_status($m, ['a', 'b'])], [0, 'b (PASS, 1 unexpected)'],
	  'an unexpected result without --judge: 0, and named');
is_deeply([exit_status($m, ['a', 'b'], judge => 1)], [1, 'b (PASS, 1 unexpected)'], '... with --judge: 1');
is_deeply([exit_status($m, ['a', 'c'])], [1, 'c (BUILDFAIL)'], 'BUILDFAIL: 1 without --judge');
is_deeply([exit_status($m, ['d', 'a'])], [1, 'd (PANIC)'], 'PANIC: 1 without --judge');
is_deeply([exit_status($m, ['e'])], [1, 'e (MISSING)'], 'a variant with no record: 1');
done_testing;
