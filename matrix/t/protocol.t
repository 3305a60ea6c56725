# The guest protocol (VMAB::Protocol): the frames the host writes for its
# fixtures read back as written, a malformed frame is no frame, and the
# guest's /init (suite/init.sh) writes the frames and reads the command-line
# parameters the module names.
use strict;
use warnings;
use Test::More;
use FindBin;
use lib "$FindBin::Bin/../lib";
use VMAB::Protocol qw(cmdline frame parse_frame);

my $top = "$FindBin::Bin/../..";
my @cases = (
	[hello => variant => 'both', kernel => '6.1.0', modes => 'swap-classic,noswap-mglru', clocksource => 'tsc', cpus => 2],
	[begin => mode => 'swap-classic', prog => 'base_test'],
	[end => mode => 'swap-classic', prog => 'base_test', rc => 0, ms => 1230, clocksource => 'tsc'],
	['done'],
);
for my $c (@cases) {
	my ($kind, %v) = @$c;
	my $l = frame(@$c);
	is_deeply([parse_frame($l)], [$kind, \%v], "$kind: written and read back ($l)");
}
is_deeply([parse_frame(frame(error => 'mode swap-classic: swapon /dev/vda failed'))],
	  [error => { why => 'mode swap-classic: swapon /dev/vda failed' }], 'an error frame');
is_deeply([parse_frame('@@vmab end mode=a prog=b rc=x ms=1')], [], 'an end frame with a bad rc is no frame');
is_deeply([parse_frame('@@vmab begin prog=b')], [], 'a begin frame without its mode is no frame');
is_deeply([parse_frame('ok 1 x')], [], 'a TAP line is no frame');
is(cmdline(variant => 'v', modes => 'm', list => 'l', cpus => 2), 'vmab_variant=v vmab_modes=m vmab_list=l vmab_cpus=2', 'the command line');

# The guest side says the same.
open(my $fh, '<', "$top/suite/init.sh") or die $!;
my $init = do { local $/; <$fh> };
like($init, qr/\$\{vmab_$_\b/, "init.sh reads vmab_$_") for qw(variant modes list cpus);
like($init, qr/say "\@\@vmab hello variant=\S+ kernel=.* modes=\S+ clocksource=/, 'init.sh: hello');
like($init, qr/say "\@\@vmab begin mode=\$mode prog=\$prog"/, 'init.sh: begin');
like($init, qr/say "\@\@vmab end mode=\$mode prog=\$prog rc=\$rc ms=.* clocksource=/, 'init.sh: end');
like($init, qr/say "\@\@vmab done"/, 'init.sh: done');
like($init, qr/OUT=\/dev\/ttyS1/, 'init.sh: the results channel');
done_testing();
