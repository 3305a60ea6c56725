# The one result record (VMAB::Record): made from a parsed results log,
# read back by TAP, the report's lookups and the counts; and the one
# constructor of a variant's matrix.json record.
use strict;
use warnings;
use Test::More;
use VMAB::Tap qw(parse_results);
use VMAB::Record qw(results to_tap mode_tests mode_names prog_of variant_record counts);

my $parsed = parse_results(<<'EOT');
@@vmab hello variant=v kernel=k modes=m
@@vmab begin mode=m prog=p
1..3
#  RUN           global.first ...
ok 1 # SKIP CONFIG_VRANGE=n
#  RUN           f.v.second ...
# p.c:9:second:Expected 1 (1) == x (0)
not ok 2 f.v.second
ok 3 third
# @data {"kind":"scenario","pages":4}
@@vmab end mode=m prog=p rc=1 ms=20
@@vmab begin mode=n prog=p
1..1
ok 1 third
@@vmab end mode=n prog=p rc=0 ms=7
@@vmab done
EOT
my @r = results('v', $parsed);
is_deeply(\@r, [
	{ variant => 'v', mode => 'm', test => 'p/first', status => 'skip', reason => 'CONFIG_VRANGE=n' },
	{ variant => 'v', mode => 'm', test => 'p/f.v.second', status => 'fail',
	  excerpt => ['p.c:9:second:Expected 1 (1) == x (0)'] },
	{ variant => 'v', mode => 'm', test => 'p/third', status => 'pass' },
	{ variant => 'v', mode => 'n', test => 'p/third', status => 'pass' },
], 'one flat record a result: a skip keeps its reason, a failure its excerpt');
is(prog_of('p/f.v.second'), 'p', 'the program is the first part of the test');

my $tap = to_tap('v', @r);
is($tap, "TAP version 13\n# variant v\n1..4\nok 1 m/p/first # SKIP CONFIG_VRANGE=n\n" .
	 "not ok 2 m/p/f.v.second\nok 3 m/p/third\nok 4 n/p/third\n", 'TAP from the records');

my $x = variant_record(outcome => 'FAIL', why => ['1 test(s) failed'], results => \@r, parsed => $parsed,
		       phases => { boot => 3 }, release => '6.1.192+');
is_deeply($x->{results}, \@r, 'the variant record keeps the records');
is_deeply($x->{modes}{m}{programs}{p}, { rc => 1, ms => 20, planned => 3, ran => 3 }, 'programs per mode');
is_deeply($x->{modes}{m}{data}, [{ kind => 'scenario', pages => 4, prog => 'p' }], '@data per mode');
ok(!exists $x->{modes}{m}{tests}, 'results are kept once, not again per mode');
is($x->{kernel_release}, '6.1.192+', 'kernel release');
is_deeply(mode_tests($x, 'm'), { 'p/first' => { result => 'skip', reason => 'CONFIG_VRANGE=n' },
				 'p/f.v.second' => { result => 'fail' }, 'p/third' => { result => 'pass' } },
	  "one mode's results, by test, as the report looks them up");
is_deeply([mode_names($x)], ['m', 'n'], 'the modes it ran');
push @{$x->{results}}, { variant => 'v', mode => 'o', test => 'p/late', status => 'pass' };
is_deeply([mode_names($x)], ['m', 'n', 'o'], 'a result added later is seen (the index is made again)');
is_deeply(mode_tests($x, 'o'), { 'p/late' => { result => 'pass' } }, '... in its mode too');
pop @{$x->{results}};
is_deeply(counts($x), { pass => 2, skip => 1, fail => 1, all => 4 }, 'counts');

my $b = variant_record(outcome => 'BUILDFAIL', why => ['make failed'], phases => { config => 1 });
is_deeply([@$b{qw(outcome why problems results modes splats)}],
	  ['BUILDFAIL', ['make failed'], [], [], {}, []], 'a build failure: the same shape, empty');
ok(!exists $b->{kernel_release}, '... and no kernel release');
is_deeply([mode_names($b)], [], '... no modes');
done_testing;
