# A build farm through ccache's prefix command: a distccd on 127.0.0.1 only,
# a compile through CCACHE_PREFIX=distcc ccache gcc with DISTCC_HOSTS naming
# it, and distccd's log saying the compile ran there.  This is what
# VMAB::Kbuild does when DISTCC_HOSTS is set.
use strict;
use warnings;
use Test::More;
use File::Temp qw(tempdir);
use IO::Socket::INET;
use POSIX ();
use Time::HiRes qw(sleep);
use VMAB::File qw(slurp spew);

sub in_path { my ($p) = @_; grep { -x "$_/$p" } split /:/, $ENV{PATH} // '' }
for my $p (qw(distccd distcc ccache gcc)) {
	plan skip_all => "no $p (Debian package " . ($p =~ /distcc/ ? 'distcc' : $p) . ')'
		unless in_path($p);
}

my $d = tempdir(CLEANUP => 1);
# distccd started as root runs as the user distccd: it must write the log.
chmod(0777, $d);
my $log = "$d/distccd.log";
spew($log, '');
chmod(0666, $log);

# A free port on the loopback address, then distccd on it.
my $s = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0, Listen => 1, ReuseAddr => 1)
	or plan skip_all => "no loopback socket: $!";
my $port = $s->sockport;
close $s;
my $pid = fork // die "fork: $!\n";
if (!$pid) {
	POSIX::setpgid(0, 0);
	open(STDIN, '<', '/dev/null');
	open(STDOUT, '>', "$d/distccd.out");
	open(STDERR, '>&', \*STDOUT);
	exec('distccd', '--daemon', '--no-detach', '--listen', '127.0.0.1', '--allow', '127.0.0.1',
	     '--port', $port, '--jobs', '2', "--log-file=$log", '--log-level=info')
		or POSIX::_exit(127);
}
END { local $?; if ($pid) { kill('TERM', -$pid); waitpid($pid, 0) } }
# Wait until it listens (its log says so).
my $up;
for (1 .. 100) {
	$up = slurp($log) =~ /listening on 127\.0\.0\.1:$port/ and last;
	sleep(0.1);
}
ok($up, "distccd listens on 127.0.0.1:$port") or diag(slurp("$d/distccd.out") . slurp($log));

spew("$d/farm.c", "int farm(int x) { return x * 7; }\n");
my %env = (CCACHE_DIR => "$d/ccache", CCACHE_PREFIX => 'distcc',
	   DISTCC_HOSTS => "127.0.0.1:$port/2",
	   DISTCC_FALLBACK => 0,	# fail rather than compile here unnoticed
	   DISTCC_DIR => "$d/distcc");
mkdir($env{DISTCC_DIR}) or die "mkdir $env{DISTCC_DIR}: $!\n";
my $rc = do {
	local @ENV{keys %env} = values %env;
	system('ccache', 'gcc', '-c', "$d/farm.c", '-o', "$d/farm.o");
};
is($rc, 0, 'CCACHE_PREFIX=distcc ccache gcc -c compiles');
ok(-s "$d/farm.o", '... an object');
# distccd logs a job when it is done; give it a moment.
my $l = '';
for (1 .. 30) {
	$l = slurp($log);
	last if $l =~ /COMPILE_OK/;
	sleep(0.1);
}
like($l, qr/COMPILE_OK.*farm\.c/, "distccd's log has the compile") or diag($l);
done_testing;
