# The variant table: build order, report order, modes and what a mode's
# name means, all from matrix/variants.conf.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempfile);
use VMAB::File qw(spew);
use VMAB::Variants qw(load_variants select_variants report_order mode_order mode_traits);

sub table {
	my (undef, $f) = tempfile(UNLINK => 1);
	spew($f, $_[0]);
	return $f;
}

my $f = table(<<'EOT');
# name  fragments  modes                       timeout  report
b       x          swap-classic,noswap-mglru   900      2
a       y          noswap-classic              2400     1
EOT
is_deeply([map { $_->{name} } @{load_variants($f)}], [qw(b a)], 'build order: the rows');
is_deeply([report_order($f)], [qw(a b)], 'report order: the report column');
is_deeply([mode_order($f)], [qw(swap-classic noswap-mglru noswap-classic)], 'modes in the order they first appear');
is_deeply(load_variants($f)->[1], { name => 'a', fragments => ['y'], modes => ['noswap-classic'],
				    timeout => 2400, report => 1 }, 'a row');
is_deeply([map { $_->{name} } @{select_variants(load_variants($f), 'a')}], ['a'], 'select');
eval { select_variants(load_variants($f), 'c') };
like($@, qr/unknown variant\(s\): c/, '... an unknown one is an error');

is_deeply(mode_traits('swap-mglru'), { swap => 1, lru => 'mglru' }, 'swap-mglru');
is_deeply(mode_traits('noswap-classic'), { swap => 0, lru => 'classic' }, 'noswap-classic');
eval { mode_traits('swap') };
like($@, qr/unknown mode 'swap'/, 'a mode that says no LRU is an error');
ok(VMAB::Variants::wants_swap_disk(load_variants($f)->[0]), 'a variant with a swap mode gets a swap disk');
ok(!VMAB::Variants::wants_swap_disk(load_variants($f)->[1]), '... one without does not');

eval { load_variants(table("a x swap-classic 900\n")) };
like($@, qr/want 'name fragments modes timeout report'/, 'a row without its report place');
eval { load_variants(table("a x swap-lru 900 1\n")) };
like($@, qr/:1: unknown mode 'swap-lru'/, 'a row with an unknown mode');
eval { load_variants(table("a x swap-classic 900 1\na y swap-classic 900 2\n")) };
like($@, qr/a is listed twice/, 'a name twice');

# The real table: every variant has a distinct place in the report.
my $real = load_variants();
my %place = map { $_->{report} => $_->{name} } @$real;
is(scalar keys %place, scalar @$real, 'the real table: one report place a variant');
done_testing;
