package VMAB::Run;
# Running host commands with their output in a log file.
use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(run_logged capture);

# run_logged($log, @cmd): runs @cmd with stdout and stderr appended to $log.
# Dies with the command, its status and the log's tail when it fails.
sub run_logged {
	my ($log, @cmd) = @_;
	my $pid = fork // die "fork: $!\n";
	if (!$pid) {
		open(STDOUT, '>>', $log) or die "cannot write $log: $!\n";
		open(STDERR, '>&', \*STDOUT) or die "dup: $!\n";
		open(STDIN, '<', '/dev/null');
		exec { $cmd[0] } @cmd or die "exec $cmd[0]: $!\n";
	}
	waitpid($pid, 0);
	my $st = $?;
	return 1 if $st == 0;
	my $tail = '';
	if (open(my $fh, '<', $log)) {
		my @l = <$fh>;
		$tail = join('', @l[($#l > 20 ? $#l - 20 : 0) .. $#l]);
	}
	my $why = $st & 127 ? 'killed by signal ' . ($st & 127)
		: 'exit status ' . ($st >> 8);
	die "command failed ($why): @cmd\n  log: $log\n$tail";
}

# capture(@cmd): stdout of @cmd (stderr passes through), or dies.
sub capture {
	my (@cmd) = @_;
	open(my $fh, '-|', @cmd) or die "cannot run $cmd[0]: $!\n";
	local $/;
	my $out = <$fh> // '';
	close($fh) or die "command failed: @cmd\n";
	return $out;
}

1;
