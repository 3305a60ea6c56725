# The job pool runs jobs at most N at once and brings results back.
use strict;
use warnings;
use Test::More;
use Time::HiRes qw(time);
use VMAB::Pool qw(run_pool);

my %got;
my $t0 = time;
run_pool(2, [map { my $i = $_; ["j$i", sub { select(undef, undef, undef, 0.5); { i => $i } }] } 1 .. 4],
	 sub { $got{$_[0]} = $_[1] });
my $dt = time - $t0;
is_deeply(\%got, { map { ("j$_" => { i => $_ }) } 1 .. 4 }, 'every result back');
ok($dt >= 0.9 && $dt < 1.9, "two at a time (took ${dt}s)");

%got = ();
run_pool(1, [['dies', sub { die "boom\n" }], ['ok', sub { { fine => 1 } }]], sub { $got{$_[0]} = $_[1] });
ok(exists $got{dies} && !defined $got{dies}, 'a job that dies gives undef');
is_deeply($got{ok}, { fine => 1 }, 'the next job still runs');
done_testing;
