#!/usr/bin/perl
# make host-bench: build the benchmark programs of suite/host-bench.list for
# this host and run them here, natively (VMAB::HostBench); writes
# out/host-bench/ and out/results/host-bench.json (docs/host-bench.md).
#   tools/host-bench.pl [OUT]      (default out)
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../matrix/lib";
use File::Path qw(make_path);
use JSON::PP;
use POSIX qw(strftime);
use Time::HiRes qw(time);
use VMAB::File qw(slurp spew);
use VMAB::HostBench qw(host_plan host_env host_record);
use VMAB::Log qw(info phase);
use VMAB::Run qw(run_logged);

my $top = "$FindBin::Bin/..";
my $out = shift // "$top/out";
my $dir = "$out/host-bench";
my $bin = "$dir/bin";
make_path($bin, "$out/results");
my ($plan, $missing) = host_plan("$top/suite");
info("host-bench: $_ is not in suite/ or bench.list yet: skipped") for @$missing;
die "host-bench: nothing to run\n" unless @$plan;

my $ksrc = "$out/src/linux";
-f "$ksrc/tools/testing/selftests/kselftest_harness.h" or die "no $ksrc: run make tree first\n";
phase('host-bench: build ' . join(' ', map { $_->{prog} } @$plan), sub {
	run_logged("$dir/build.log", 'make', '-C', "$top/suite", "KSRC=$ksrc", "OUT=$bin",
		   map { "$bin/$_->{prog}" } @$plan);
});

chomp(my $release = `uname -r`);
chomp(my $machine = `uname -m`);
my ($cpu) = slurp('/proc/cpuinfo') =~ /^model name\s*:\s*(.*)$/m;
my $env = host_env(swaps => slurp('/proc/swaps'), lru_gen => slurp('/sys/kernel/mm/lru_gen/enabled'));
spew("$dir/uname.txt", "$release\n");
local @ENV{keys %$env} = values %$env;
my @runs;
for my $p (@$plan) {
	my ($dt, $text, $rc) = phase("host-bench: $p->{prog} @{$p->{args}}", sub {
		my $cmd = join(' ', map { "'$_'" } "$bin/$p->{prog}", @{$p->{args}});
		my $o = `$cmd 2>>'$dir/$p->{prog}.err' < /dev/null`;
		return ($o, $? >> 8);
	});
	spew("$dir/$p->{prog}.out", $text);
	push @runs, { %$p, rc => $rc, seconds => sprintf('%.1f', $dt) + 0, output => $text };
}
my $rec = host_record(
	host => { host_kernel => $release, machine => $machine, cpu => $cpu // 'unknown',
		  cores => scalar(() = slurp('/proc/cpuinfo') =~ /^processor\s*:/mg),
		  swap => $env->{VMAB_SWAP}, lru => $env->{VMAB_LRU} },
	generated => strftime('%Y-%m-%dT%H:%M:%SZ', gmtime), runs => \@runs);
# The figures as the programs wrote them, after the host kernel's release.
spew("$dir/data.txt", join('', "# uname -r: $release\n",
			   map { my $p = $_->{prog}; map { "$p: $_\n" } grep { /^#\s*\@data\s/ } split /\n/, $_->{output} } @runs));
spew("$out/results/host-bench.json", JSON::PP->new->canonical->pretty->encode($rec));
my @bad = grep { $_->{result} eq 'fail' } @{$rec->{tests}};
info(sprintf('host-bench: %d results (%d skipped, %d failed), %d @data records: %s',
	     scalar @{$rec->{tests}}, scalar(grep { $_->{result} eq 'skip' } @{$rec->{tests}}),
	     scalar @bad, scalar @{$rec->{data}}, "$out/results/host-bench.json"));
die "host-bench: malformed \@data lines: @{$rec->{bad_data}}\n" if @{$rec->{bad_data}};
exit((@bad || grep { $_->{rc} } @runs) ? 1 : 0);
