package VMAB::Log;
# Progress lines: one when a phase starts, one when it ends, with its duration.
use strict;
use warnings;
use Exporter 'import';
use Time::HiRes qw(time);
use POSIX qw(strftime);

our @EXPORT_OK = qw(info phase);

our $QUIET = 0;

sub info {
	my ($msg) = @_;
	return if $QUIET;
	printf STDERR "[%s] %s\n", strftime('%H:%M:%S', localtime), $msg;
}

# phase($what, sub { ... }): runs the sub, logs start and end, returns
# ($seconds, @results).  A die inside is logged with the time and rethrown.
sub phase {
	my ($what, $code) = @_;
	my $t0 = time;
	info("$what ...");
	my @r = eval { $code->() };
	my $dt = time - $t0;
	if (my $err = $@) {
		info(sprintf('%s FAILED after %.1fs', $what, $dt));
		die $err;
	}
	info(sprintf('%s done in %.1fs', $what, $dt));
	return ($dt, @r);
}

1;
