# No design's build option may reach the objects of most of the kernel
# (make check runs this after the builds; it needs out/build/V).  Kbuild's
# fixdep records a dependency on every CONFIG_ word that a source file or a
# header it includes names, comments included: one such word in a header
# that most files include made switching design A rebuild about 650
# objects of about 835.  A design's option belongs in its own files and
# its own header, which the few dozen objects that hook it in include.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Find;

my $top = "$FindBin::Bin/../..";
my $MAX = 60;
my @SYMBOLS = qw(VRANGE MADV_FREE MAP_DROPPABLE);

my @builds = grep { -f "$_/.config" && -f "$_/vmlinux" } glob("$top/out/build/*");
ok(@builds, 'a built variant is there (run the builds first)') or BAIL_OUT('no build');
for my $b (@builds) {
	(my $v = $b) =~ s{.*/}{};
	my (%n, $objects);
	find(sub {
		return unless /\.o\.cmd$/;
		$objects++;
		open(my $fh, '<', $_) or die "$File::Find::name: $!\n";
		my $text = do { local $/; <$fh> };
		for my $s (@SYMBOLS) {
			$n{$s}++ if index($text, "include/config/$s)") >= 0;
		}
	}, $b);
	for my $s (@SYMBOLS) {
		my $c = $n{$s} // 0;
		ok($c <= $MAX, "$v: $c of $objects objects depend on CONFIG_$s (at most $MAX)");
	}
}
done_testing;
