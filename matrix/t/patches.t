# The patch series: every series file lists existing patches and every
# patch is listed.  Whether each patch passes checkpatch.pl is
# matrix/xt/checkpatch.t (make checkpatch): it needs the unpacked tree,
# which these unit tests must not wait for.
use strict;
use warnings;
use Test::More;
use FindBin;
use VMAB::Tree qw(series_patches);

my $top = "$FindBin::Bin/../..";

for my $s (@VMAB::Tree::SERIES) {
	my $dir = "$top/patches/$s";
	ok(-f "$dir/series", "$s: has a series file") or next;
	my %listed = map { s{.*/}{}r => 1 } series_patches("$top/patches", $s);
	ok(%listed, "$s: the series lists patches");
	for my $p (glob "$dir/*.patch") {
		(my $name = $p) =~ s{.*/}{};
		next if $name =~ /^0000-/;	# a cover letter
		ok($listed{$name}, "$s: $name is in the series");
	}
}
done_testing;
