# Reusing a clean boot: the key follows every input the guest sees, and a
# boot is reused only with the same key and both logs present.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use VMAB::File qw(spew);
use VMAB::Reuse qw(boot_key reusable_boot remember_boot forget_boot);

my $d = tempdir(CLEANUP => 1);
spew("$d/bzImage", "kernel one");
spew("$d/initrd", "initramfs");
my %in = (kernel => "$d/bzImage", initrd => "$d/initrd",
	  append => 'vmab_variant=both vmab_modes=swap-classic', accel => 'tcg', qemu => '7.2.0');
my $k = boot_key(%in);
like($k, qr/^[0-9a-f]{64}$/, 'the key is a SHA-256');
is(boot_key(%in), $k, 'same inputs, same key');
for my $what (qw(append accel qemu)) {
	isnt(boot_key(%in, $what => "$in{$what}x"), $k, "the key follows $what");
}
{
	# The clock arguments are part of the command line the guest gets.
	local $VMAB::Qemu::CLOCK = 'tsc=reliable tsc_early_khz=1';
	isnt(boot_key(%in), $k, 'the key follows the clock arguments (the host\'s TSC rate)');
}
is(boot_key(%in), $k, '... and is the same again with the same clock');
spew("$d/bzImage", "kernel two");
isnt(boot_key(%in), $k, 'the key follows the kernel image');
spew("$d/bzImage", "kernel one");
is(boot_key(%in), $k, '... by content, not by date');
ok(!eval { boot_key(%in, initrd => "$d/none"); 1 }, 'a missing image is an error');

my $logs = "$d/logs";
mkdir $logs;
is(reusable_boot($logs, $k), undef, 'nothing remembered: boot');
remember_boot($logs, $k, '123.4');
is(reusable_boot($logs, $k), undef, 'remembered but no logs: boot');
spew("$logs/console.log", "console\n");
spew("$logs/results.log", "\@\@vmab done\n");
is(reusable_boot($logs, $k), '123.4', 'same key and both logs: reused, with its time');
is(reusable_boot($logs, boot_key(%in, append => 'other')), undef, 'another key: boot');
spew("$logs/results.log", '');
is(reusable_boot($logs, $k), undef, 'an empty results log: boot');
spew("$logs/results.log", "\@\@vmab done\n");
forget_boot($logs);
is(reusable_boot($logs, $k), undef, 'forgotten (a boot started): boot');
done_testing;
