#!/usr/bin/perl
# Print a draft of matrix/expected.tsv from the outcomes in
# out/results/matrix.json, for a maintainer to review before committing
# (a draft is never used to judge: a failure shows up as "FAIL?").
# Rows already in matrix/expected.tsv keep their reason.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../matrix/lib";
use VMAB::Judge qw(load_expected);
use VMAB::Results qw(load_matrix);

my $top = "$FindBin::Bin/..";
my $m = load_matrix($ARGV[0] // "$top/out/results/matrix.json");
my $old = eval { load_expected("$top/matrix/expected.tsv") } // { rows => {} };
my @v = qw(none vrange madv-free both lean swapless debug);
my %ids;
for my $x (values %{$m->{variants}}) {
	$ids{$_} = 1 for map { keys %{$_->{tests} // {}} } values %{$x->{modes} // {}};
}
my $w = 8;
length > $w and $w = length for keys %ids;
printf "%-*s  %s\n", $w, 'test', join('  ', @v);
for my $id (sort keys %ids) {
	my (@cells, %why);
	for my $v (@v) {
		my $modes = $m->{variants}{$v}{modes} // {};
		my %by;	# outcome -> [modes]
		for my $mode (sort keys %$modes) {
			my $t = $modes->{$mode}{tests}{$id} or next;
			push @{$by{$t->{result}}}, $mode;
			$why{$t->{reason}} = 1 if $t->{reason};
		}
		my @o = sort { @{$by{$a}} <=> @{$by{$b}} } keys %by;
		my $cell = !@o ? '?' : @o == 1 ? $o[0]
			: join(',', (map { my $o = $_; map { "$_=$o" } @{$by{$o}} } @o[0 .. $#o - 1]), $o[-1]);
		$cell =~ s/fail/FAIL?/g;
		push @cells, $cell;
	}
	my $reason = $old->{rows}{$id}{reason} || join('; ', sort keys %why);
	printf "%-*s  %s%s\n", $w, $id, join('  ', @cells), $reason ? "  # $reason" : '';
}
