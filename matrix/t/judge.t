# The expected table: parsing, mode globs, and every kind of mismatch.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempfile);
use VMAB::Judge qw(load_expected expected_for judge);

sub table {
	my ($text) = @_;
	my ($fh, $f) = tempfile(UNLINK => 1);
	print $fh $text;
	close $fh;
	return load_expected($f);
}

my $t = table(<<'EOT');
# comment
test      none  both
p/a       pass  pass
p/b       skip  noswap-*=skip,pass   # needs swap
p/c       skip  pass                 # CONFIG_X=n
EOT
is(expected_for($t, 'p/a', 'none', 'swap-classic'), 'pass', 'plain cell');
is(expected_for($t, 'p/b', 'both', 'noswap-mglru'), 'skip', 'glob entry');
is(expected_for($t, 'p/b', 'both', 'swap-mglru'), 'pass', 'fallback entry');
is($t->{rows}{'p/c'}{reason}, 'CONFIG_X=n', 'reason');
is(expected_for($t, 'p/zz', 'both', 'm'), undef, 'unknown test');

sub run {
	my (@tests) = @_;
	my %progs;
	$progs{"$_->[0]\0p"} = { mode => $_->[0], prog => 'p', rc => 0 } for @tests;
	return { tests => [map { { mode => $_->[0], id => $_->[1], prog => 'p', result => $_->[2] } } @tests],
		 programs => [values %progs] };
}

my @ok = judge($t, 'both', run(['swap-classic', 'p/a', 'pass'], ['swap-classic', 'p/b', 'pass'],
			       ['swap-classic', 'p/c', 'pass']));
is(scalar @ok, 0, 'all as expected') or diag explain \@ok;

my @bad = judge($t, 'both', run(['swap-classic', 'p/a', 'fail'], ['swap-classic', 'p/b', 'pass'],
				['swap-classic', 'p/c', 'skip'], ['swap-classic', 'p/new', 'pass']));
my %what = map { ($_->{id} => $_->{what}) } @bad;
is($what{'p/a'}, 'unexpected failure', 'failure caught');
is($what{'p/c'}, 'unexpected skip', 'unexpected skip caught');
is($what{'p/new'}, 'not in the expected table', 'unknown test caught');
my ($fa) = grep { $_->{id} eq 'p/a' } @bad;
is_deeply($fa->{why}, [], 'a failure carries why, empty when the test said nothing');
ok(!exists((grep { $_->{id} eq 'p/c' } @bad)[0]{why}), '... an unexpected skip carries none');
my $r = run(['swap-classic', 'p/a', 'fail']);
$r->{tests}[0]{diag} = ['# p.c:9:a:Expected 1 (1) == x (0)'];
($fa) = judge($t, 'both', $r);
is_deeply($fa->{why}, ['p.c:9:a:Expected 1 (1) == x (0)'], '... and the test\'s own words when it said some');

@bad = judge($t, 'none', run(['noswap-classic', 'p/a', 'pass'], ['noswap-classic', 'p/b', 'pass']));
%what = map { ($_->{id} => $_->{what}) } @bad;
is($what{'p/b'}, 'unexpected pass', 'unexpected pass caught');
is($what{'p/c'}, 'missing test', 'missing test caught');

@bad = judge($t, 'both', { tests => [], programs => [] });
is(scalar @bad, 0, 'programs that did not run are not expected');

eval { judge($t, 'debug', run()) };
like($@, qr/no column/, 'a variant without a column is an error');

eval { table("test none\np/a pass pass\n") };
like($@, qr/cells/, 'wrong cell count is an error');
eval { table("test none\np/a fail\n") };
like($@, qr/bad outcome/, 'fail is never expected');

my $real = load_expected("$FindBin::Bin/../../matrix/expected.tsv");
is_deeply($real->{variants}, [qw(none vrange madv-free both lean swapless debug)],
	  'the real table has the seven variants');
done_testing;
