# The patch series: every series file lists existing patches, every patch is
# listed, and every patch passes
# scripts/checkpatch.pl --strict with no error and no warning.  Warnings the
# kernel itself accepts for new files are ignored by type, named here.
use strict;
use warnings;
use Test::More;
use FindBin;
use VMAB::Tree qw(series_patches);

my $top = "$FindBin::Bin/../..";
my $checkpatch = "$top/out/src/linux/scripts/checkpatch.pl";
my @IGNORE = qw(FILE_PATH_CHANGES);	# "does MAINTAINERS need updating?"
my $have_checkpatch = ok(-x $checkpatch, "the tree's checkpatch.pl is there (make tree)");

for my $s (@VMAB::Tree::SERIES) {
	my $dir = "$top/patches/$s";
	ok(-f "$dir/series", "$s: has a series file") or next;
	my @listed = series_patches("$top/patches", $s);
	my %listed = map { s{.*/}{}r => 1 } @listed;
	for my $p (glob "$dir/*.patch") {
		(my $name = $p) =~ s{.*/}{};
		next if $name =~ /^0000-/;	# a cover letter
		ok($listed{$name}, "$s: $name is in the series");
	}
	next unless $have_checkpatch;
	for my $p (@listed) {
		(my $name = $p) =~ s{.*/}{};
		my $out = `$checkpatch --strict --no-tree --ignore @{[join ',', @IGNORE]} --root=$top/out/src/linux $p 2>&1`;
		my ($e, $w, $c) = $out =~ /total: (\d+) errors, (\d+) warnings, (\d+) checks/;
		ok(defined $e && $e == 0 && $w == 0, "$s: $name is checkpatch --strict clean")
			or diag $out;
		diag "$s: $name: $c checks" if $c;
	}
}
done_testing;
