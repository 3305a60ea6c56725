package VMAB::Pool;
# Running jobs in forked children, at most N at once.  Each job is a sub
# whose return value (a hash reference) comes back to the parent as JSON.
# SIGINT/SIGTERM in the parent reach the children, whose own handlers stop
# their QEMU (VMAB::Qemu).
use strict;
use warnings;
use Exporter 'import';
use File::Temp qw(tempfile);
use POSIX ();
use JSON::PP;
use VMAB::File qw(slurp spew);

our @EXPORT_OK = qw(run_pool);

my %children;

sub stop_children {
	kill('TERM', $_) for keys %children;
	waitpid($_, 0) for keys %children;
	%children = ();
}

# run_pool($n, [ [name, sub], ... ], $on_done) : $on_done->(name, result)
# is called in the parent as each job ends (result undef if it died).
sub run_pool {
	my ($n, $jobs, $on_done) = @_;
	my @queue = @$jobs;
	my %file;
	while (@queue || %children) {
		while (@queue && keys %children < $n) {
			my ($name, $code) = @{shift @queue};
			my (undef, $f) = tempfile('vmab-job-XXXXXX', TMPDIR => 1, UNLINK => 0);
			my $pid = fork // die "fork: $!\n";
			if (!$pid) {
				%children = ();
				my $r = eval { $code->() };
				if (!$r) {
					print STDERR "job $name died: $@";
					POSIX::_exit(1);
				}
				spew($f, JSON::PP->new->encode($r));
				POSIX::_exit(0);
			}
			$children{$pid} = $name;
			$file{$pid} = $f;
		}
		my $pid = wait;
		last if $pid < 0;
		my $name = delete $children{$pid} // next;
		my $text = slurp($file{$pid});
		unlink delete $file{$pid};
		$on_done->($name, $? == 0 && length $text ? JSON::PP->new->decode($text) : undef);
	}
}

1;
