# The boot loop: a guest that hangs is killed at its timeout, a flooding one
# when its console grows too big, and no QEMU process is left behind.  A
# stand-in script plays QEMU so the test needs no kernel.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use VMAB::Qemu qw(boot);

my $dir = tempdir(CLEANUP => 1);
sub fake {
	my ($name, $body) = @_;
	open(my $fh, '>', "$dir/$name") or die;
	print $fh "#!/bin/sh\n$body\n";
	close $fh;
	chmod 0755, "$dir/$name";
	return "$dir/$name";
}
# Alive: exists and is not a zombie waiting for its new parent to reap it.
sub alive {
	my ($pid) = @_;
	for (1 .. 20) {
		open(my $fh, '<', "/proc/$pid/stat") or return 0;
		my $stat = <$fh> // '';
		return 0 if $stat =~ /^\d+ \(.*\) Z/;
		select(undef, undef, undef, 0.1);
	}
	return 1;
}

# Arguments as the real driver passes them; the fake writes its pid first.
my %args = (kernel => 'k', initrd => 'i', append => '', accel => 'tcg',
	    console => "$dir/console", results => "$dir/results");

$VMAB::Qemu::QEMU = fake('hang', "echo \$\$ > $dir/pid; sleep 1000 & echo \$! > $dir/child; wait");
my $r = boot(%args, timeout => 1);
ok($r->{timed_out}, 'hang: timed out');
ok($r->{seconds} < 5, 'hang: killed promptly');
chomp(my $pid = `cat $dir/pid`);
ok(!alive($pid), 'hang: the QEMU stand-in is gone');
chomp(my $child = `cat $dir/child`);
ok($child && !alive($child), 'hang: its children too');

$VMAB::Qemu::FLOOD_BYTES = 1 << 20;
my $flood = fake('flood', 'while :; do for f in "$@"; do case $f in file:*console) ' .
		 'yes floodfloodflood | head -c 5000000 >> "${f#file:}";; esac; done; done');
$VMAB::Qemu::QEMU = $flood;
$r = boot(%args, timeout => 30);
ok($r->{flooded}, 'flood: stopped as a flood');
ok(!$r->{timed_out}, 'flood: before the timeout');

$VMAB::Qemu::QEMU = fake('quick', "echo hi; exit 3");
$r = boot(%args, timeout => 10);
ok(!$r->{timed_out} && !$r->{flooded}, 'exit: neither timeout nor flood');
is($r->{status} >> 8, 3, 'exit: status kept');
done_testing;
