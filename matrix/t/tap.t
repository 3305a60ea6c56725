# Parsing the results channel: framing, TAP lines, the 6.1 harness's
# nameless skips, @data lines, programs cut off mid-run.
use strict;
use warnings;
use Test::More;
use FindBin;
use VMAB::File qw(slurp);
use VMAB::Tap qw(parse_results parse_tap_line failure_excerpt);

my $t = parse_tap_line('ok 3 # SKIP no swap');
is($t->{result}, 'skip', 'nameless skip is a skip');
is($t->{name}, '', '... with no name');
is($t->{reason}, 'no swap', '... and its reason');
$t = parse_tap_line('not ok 7 fixture.variant.test');
is_deeply([@$t{qw(result num name)}], ['fail', 7, 'fixture.variant.test'], 'failure');
$t = parse_tap_line('ok 2 - dash name # skip later');
is_deeply([@$t{qw(result name reason)}], ['skip', 'dash name', 'later'], 'dash and lower-case skip');
is(parse_tap_line('# ok 1 comment'), undef, 'a comment is no result');
is(parse_tap_line('ok'), undef, 'an unnumbered ok is no result (TAP::Parser would number it)');
is(parse_tap_line('  ok 1 nested'), undef, 'an indented (nested) result is not ours');
$t = parse_tap_line('not ok 1 khugepaged # exit status 1');
is_deeply([@$t{qw(result name note)}], ['fail', 'khugepaged', 'exit status 1'], 'a comment that is no directive is a note');
$t = parse_tap_line('not ok 4 # SKIP x');
is_deeply([@$t{qw(result name reason)}], ['skip', '', 'x'], 'not ok # SKIP is a skip');
$t = parse_tap_line('ok 5 a # TODO later');
is_deeply([@$t{qw(result name todo)}], ['pass', 'a', 'later'], 'TODO kept, the result stays');

my $r = parse_results(slurp("$FindBin::Bin/fixtures/clean.results"));
ok($r->{hello} && $r->{done}, 'recorded clean boot: hello and done');
is($r->{hello}{kernel}, '6.1.192+', 'hello carries the kernel release');
is(scalar @{$r->{programs}}, 2, 'two program runs (two modes)');
is(scalar @{$r->{tests}}, 10, 'ten results');
is($r->{tests}[0]{id}, 'base_test/madv_dontneed_zeroes_pages', 'global. prefix dropped');
is_deeply([map { $_->{mode} } @{$r->{programs}}], ['swap-classic', 'noswap-mglru'], 'modes');
is($r->{programs}[0]{planned}, 5, 'plan counted');
is($r->{programs}[0]{ran}, 5, 'results counted');

my $text = <<'EOT';
@@vmab hello variant=v kernel=k modes=m
@@vmab begin mode=m prog=p
TAP version 13
1..3
#  RUN           global.first ...
#      SKIP      no vrange
ok 1 # SKIP CONFIG_VRANGE=n
# @data {"kind":"scenario","pages":4}
# @data {broken json
#  RUN           f.v.second ...
not ok 2 f.v.second
@@vmab end mode=m prog=p rc=1 ms=20
@@vmab begin mode=m prog=q
1..2
ok 1 alive
EOT
$r = parse_results($text);
is($r->{tests}[0]{id}, 'p/first', 'nameless skip takes the RUN line name');
is($r->{tests}[0]{reason}, 'CONFIG_VRANGE=n', 'skip reason kept');
is($r->{tests}[1]{id}, 'p/f.v.second', 'fixture test id');
is_deeply($r->{data}, [{ kind => 'scenario', pages => 4, mode => 'm', prog => 'p' }], '@data decoded');
is_deeply($r->{bad_data}, [{ mode => 'm', prog => 'p', line => '# @data {broken json' }],
	  'bad @data kept aside, with its mode and program');
{
	use VMAB::Expectations qw(data_problems);
	my ($p) = data_problems($r);
	is_deeply([@$p{qw(mode id want got what)}], ['m', 'p/*', 'a JSON object', 'malformed', 'malformed @data line'],
		  'the judge reports a malformed @data line as a problem');
	like($p->{why}[0], qr/not one JSON object .*: # \@data \{broken json$/, '... quoting the line');
	my $cut = parse_results("\@\@vmab begin mode=m prog=bench_mark\n1..1\n# \@data {\"bench\":\"mark\",\"ns_me\n" .
		"# \@data\nok 1 x\n\@\@vmab end mode=m prog=bench_mark rc=0 ms=1\n");
	is(scalar(data_problems($cut)), 2, 'a truncated @data line, and an empty one, are problems too');
}
ok(!$r->{done}, 'no done line');
is($r->{programs}[1]{rc}, -1, 'a program cut off has rc -1');
is($r->{programs}[0]{clocksource}, undef, 'an end line without a clock: none recorded');

# The guest's clock, on the hello line and each end line (suite/init.sh).
$r = parse_results(slurp("$FindBin::Bin/fixtures/clock.results"));
is($r->{hello}{clocksource}, 'tsc-early', 'hello names the clocksource at boot');
is_deeply([map { $_->{clocksource} } @{$r->{programs}}], ['tsc', 'refined-jiffies'],
	  'each end line the clocksource the program ended on');
is_deeply([map { $_->{ms} } @{$r->{programs}}], [20, 30], '... after its time, still read');

# Why a result failed: the "#" lines before it, as a 6.1 harness test and
# a 6.1 selftest run by vmselftest print them.
$text = <<"EOT";
\@\@vmab begin mode=m prog=h
1..3
#  RUN           lf.memcg.ok_one ...
#            OK  lf.memcg.ok_one
ok 1 lf.memcg.ok_one
#  RUN           lf.memcg.bad_one ...
# madvfree_test.c:480:bad_one:Expected 256 (256) == event("pglazyfreed") - (freed0) (0)
# bad_one: Test terminated by assertion
#          FAIL  lf.memcg.bad_one
not ok 2 lf.memcg.bad_one
ok 3 after
\@\@vmab end mode=m prog=h rc=1 ms=5
\@\@vmab begin mode=m prog=vmselftest
1..1
# khugepaged
# Run test: collapse_full (khugepaged:anon)
# Collapse multiple fully populated PTE table....... \e[31mTimeout\e[0m
# Run test: collapse_empty (khugepaged:anon)
# Do not collapse empty PTE table.... \e[32mOK\e[0m
# vmselftest: khugepaged left khugepaged/scan_sleep_millisecs at 10, put back to 10000
not ok 1 khugepaged # exit status 1
\@\@vmab end mode=m prog=vmselftest rc=1 ms=5
EOT
$r = parse_results($text);
is($r->{tests}[0]{diag}, undef, 'a pass keeps no lines');
is_deeply([failure_excerpt($r->{tests}[1])],
	['madvfree_test.c:480:bad_one:Expected 256 (256) == event("pglazyfreed") - (freed0) (0)',
	 'FAIL  lf.memcg.bad_one'],
	'harness failure: the Expected line and the FAIL line, from after its RUN line');
is($r->{tests}[2]{diag}, undef, '... and the next result starts afresh');
is_deeply([failure_excerpt($r->{tests}[3])],
	['exit status 1', 'Collapse multiple fully populated PTE table....... Timeout',
	 'vmselftest: khugepaged left khugepaged/scan_sleep_millisecs at 10, put back to 10000'],
	'selftest failure: its note, the Timeout line without colour codes, what was put back');
is_deeply([failure_excerpt({ diag => ['# a', '#', '# b', '# c' . ('x' x 300)] })],
	['a', 'b', 'c' . ('x' x 196) . '...'],
	'no failure line: the last lines, long ones cut');
ok(!exists $r->{programs}[0]{diag}, 'programs keep no diag buffer');

done_testing;
