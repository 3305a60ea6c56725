# Every patch of every series passes the tree's scripts/checkpatch.pl
# --strict with no error and no warning (make checkpatch; it needs the
# patched tree, make tree).  Warnings the kernel itself accepts for new
# files, and those the tarball's missing history causes, are ignored by
# type, named here.
use strict;
use warnings;
use Test::More;
use FindBin;
use VMAB::Tree qw(series_patches);

my $top = "$FindBin::Bin/../..";
my $linux = $ENV{VMAB_LINUX} // "$top/out/src/linux";
my $checkpatch = "$linux/scripts/checkpatch.pl";
# FILE_PATH_CHANGES: "does MAINTAINERS need updating?"
# UNKNOWN_COMMIT_ID: the tree is a tarball with no mainline history, so
# checkpatch cannot find the mainline commits that design C's patches
# cite (SPEC 4.6 asks for them); the id format itself is still checked.
my @IGNORE = qw(FILE_PATH_CHANGES UNKNOWN_COMMIT_ID);
ok(-x $checkpatch, "the tree's checkpatch.pl is there (make tree)") or BAIL_OUT('no tree');

for my $s (@VMAB::Tree::SERIES) {
	for my $p (series_patches("$top/patches", $s)) {
		(my $name = $p) =~ s{.*/}{};
		my $out = `$checkpatch --strict --no-tree --ignore @{[join ',', @IGNORE]} --root=$linux $p 2>&1`;
		my ($e, $w, $c) = $out =~ /total: (\d+) errors, (\d+) warnings, (\d+) checks/;
		# Originally-by: credits the 2014 series a patch derives from, as
		# mainline changelogs do; 6.1's checkpatch does not list the tag.
		my $orig = () = $out =~ /^WARNING: Non-standard signature: Originally-by:/mg;
		$w -= $orig if defined $w;
		ok(defined $e && $e == 0 && $w == 0, "$s: $name is checkpatch --strict clean")
			or diag $out;
		diag "$s: $name: $c checks" if $c;
	}
}
done_testing;
