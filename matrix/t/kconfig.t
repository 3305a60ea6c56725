# Config fragments and the check that the final .config has what they asked.
use strict;
use warnings;
use Test::More;
use FindBin;
use File::Temp qw(tempfile);
use VMAB::Kconfig qw(requested_options verify_config);

my ($fh, $f) = tempfile(UNLINK => 1);
print $fh "# comment\nCONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=\"x\"\nCONFIG_D=y\n";
close $fh;
my ($fh2, $f2) = tempfile(UNLINK => 1);
print $fh2 "# CONFIG_D is not set\n";
close $fh2;
my $want = requested_options($f, $f2);
is_deeply($want, { CONFIG_A => 'y', CONFIG_B => 'n', CONFIG_C => '"x"', CONFIG_D => 'n' },
	  'later fragments override');

my $good = "CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_C=\"x\"\n";
is_deeply([verify_config($want, $good)], [], 'absent counts as off');
my @bad = verify_config($want, "CONFIG_A=m\nCONFIG_B=y\nCONFIG_C=\"x\"\nCONFIG_D=y\n");
is_deeply(\@bad, ['CONFIG_A: wanted y, got m', 'CONFIG_B: wanted n, got y',
		  'CONFIG_D: wanted n, got y'], 'each wrong option named');
@bad = verify_config({ CONFIG_VRANGE => 'y' }, "# CONFIG_VRANGE is not set\n");
is_deeply(\@bad, ['CONFIG_VRANGE: wanted y, got n'], 'a dropped option is caught');
@bad = verify_config({ CONFIG_NEW => 'y' }, "");
is_deeply(\@bad, ['CONFIG_NEW: wanted y, got absent'], 'an unknown option is caught');

# Every shipped fragment parses and the variant table names only real ones.
use VMAB::Variants qw(load_variants);
my $top = "$FindBin::Bin/../..";
for my $v (@{load_variants("$top/matrix/variants.conf")}) {
	for my $frag ('guest-base', @{$v->{fragments}}) {
		ok(-f "$top/Kconfig.fragments/$frag.config", "$v->{name}: $frag exists");
	}
	ok(%{requested_options(map { "$top/Kconfig.fragments/$_.config" } @{$v->{fragments}})},
	   "$v->{name}: fragments ask for something");
}
done_testing;
