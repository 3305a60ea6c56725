package VMAB::Run;
# Running host commands with their output in a log file.
use strict;
use warnings;
use Exporter 'import';
use POSIX ();

our @EXPORT_OK = qw(run_logged capture check_disk disk_wanted);

# run_logged($log, @cmd): runs @cmd with stdout and stderr appended to $log.
# Dies with the command, its status and the log's tail when it fails.
sub run_logged {
	my ($log, @cmd) = @_;
	open(my $out, '>>', $log) or die "cannot write $log: $!\n";
	my $pid = fork // die "fork: $!\n";
	if (!$pid) {
		# Never return into the caller's code from the child.
		no warnings 'exec';
		open(STDOUT, '>&', $out) && open(STDERR, '>&', $out) &&
			open(STDIN, '<', '/dev/null') && exec { $cmd[0] } @cmd;
		syswrite($out, "cannot run $cmd[0]: $!\n");
		POSIX::_exit(127);
	}
	close($out);
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

# disk_wanted($n): the GiB a run of $n variants needs, from a make matrix
# of eight measured on 2026-12-07 (5.4 GiB in all): the tree and its patch
# worktree 3.4 GiB and a cold ccache 0.2 GiB, rounded up to 4; a variant's
# build folder 130-200 MiB and its logs with the swap image up to 120 MiB,
# taken as 0.75 GiB. Eight variants: 10 GiB (README says the same).
sub disk_wanted {
	my ($n) = @_;
	return 4 + int((3 * $n + 3) / 4);
}

# check_disk($dir, $gib): stop early, and say why, when the file system of
# $dir has less than $gib GiB free.
sub check_disk {
	my ($dir, $gib) = @_;
	die "no folder $dir to check the free space of\n" unless -d $dir;
	my ($avail) = capture('df', '-Pk', $dir) =~ /\n\S+\s+\d+\s+\d+\s+(\d+)/;
	die "cannot tell the free space of $dir from df\n" unless defined $avail;
	die sprintf("not enough disk space in %s: %.1f GiB free, want %d GiB\n",
		    $dir, $avail / 1048576, $gib) if $avail < $gib * 1048576;
	return $avail;
}

1;
