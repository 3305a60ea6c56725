package VMAB::HostBench;
# make host-bench: the suite's benchmark programs built for this host and
# run on it, natively, for every design the host kernel has (each program
# skips what the kernel lacks, saying so), as a hardware anchor for the
# figures measured under TCG.  Only the programs of suite/host-bench.list
# run, with the arguments suite/bench.list gives them: those that do
# nothing to the host beyond ordinary system calls on their own memory (no
# knob, no cgroup, no swap, no sysctl).  Never part of make check.
#
# out/host-bench/: bin/ (the programs), PROG.out (each one's output),
# uname.txt.  out/results/host-bench.json (docs/host-bench.md):
#   { schema_version => 1, generated, host_kernel (uname -r), machine
#     (uname -m), cpu, cores, swap (on|off), lru (classic|mglru),
#     programs => [ { prog, args, rc, seconds, planned, ran, skipped } ],
#     tests => [ { prog, name, result, reason } ],
#     data => [ { prog, mode => "host", ...the "# @data" fields... } ],
#     bad_data => [ lines ] }
use strict;
use warnings;
use Exporter 'import';
use VMAB::File qw(slurp);
use VMAB::Protocol qw(frame);
use VMAB::Tap qw(parse_results);

our @EXPORT_OK = qw(host_plan host_env host_record);

our $SCHEMA_VERSION = 1;

# host_plan($suite) -> (\@plan, \@missing): @plan the programs of
# host-bench.list in its order, each { prog, args => [...] } with its
# bench.list arguments (its last line there); @missing the names whose
# source is not in suite/ (yet) or that bench.list does not run.
sub host_plan {
	my ($suite) = @_;
	my %args;
	for my $l (split /\n/, slurp("$suite/bench.list")) {
		next if $l =~ /^\s*(#|$)/;
		my ($p, @a) = split ' ', $l;
		($p, @a) = @a if $p eq 'once';
		$args{$p} = \@a;
	}
	my (@plan, @missing);
	my $list = "$suite/host-bench.list";
	-e $list or die "no $list\n";
	for my $l (split /\n/, slurp($list)) {
		next if $l =~ /^\s*(#|$)/;
		my ($p) = split ' ', $l;
		if (!-e "$suite/$p.c" || !$args{$p}) {
			push @missing, $p;
			next;
		}
		push @plan, { prog => $p, args => $args{$p} };
	}
	return (\@plan, \@missing);
}

# host_env(swaps => text of /proc/swaps, lru_gen => text of
# /sys/kernel/mm/lru_gen/enabled or undef) -> the environment a program
# gets, as /init gives it in the guest (suite/init.sh): what the host is.
sub host_env {
	my (%o) = @_;
	my $swap = ($o{swaps} // '') =~ m{^/}m ? 'on' : 'off';
	my $lru = defined $o{lru_gen} && $o{lru_gen} =~ /^0x0*[1-9a-f]/i ? 'mglru' : 'classic';
	return { VMAB_VARIANT => 'host', VMAB_MODE => 'host', VMAB_SWAP => $swap, VMAB_LRU => $lru };
}

# host_record(host => {host_kernel, machine, cpu, cores, swap, lru},
#             runs => [{ prog, args, rc, seconds, output }]) -> the
# host-bench.json record: each output read as the guest's would be
# (VMAB::Tap), under the mode "host".
sub host_record {
	my (%o) = @_;
	my $text = join("\n", map {
		(frame(begin => mode => 'host', prog => $_->{prog}), $_->{output} =~ s/\n\z//r,
		 frame(end => mode => 'host', prog => $_->{prog}, rc => $_->{rc}, ms => int(1000 * ($_->{seconds} // 0))))
	} @{$o{runs}}) . "\n";
	my $r = parse_results($text);
	my %run = map { $_->{prog} => $_ } @{$o{runs}};
	my @programs;
	for my $p (@{$r->{programs}}) {
		my $run = $run{$p->{prog}};
		push @programs, { prog => $p->{prog}, args => join(' ', @{$run->{args}}), rc => $p->{rc},
				  seconds => $run->{seconds}, map { ($_ => $p->{$_}) } qw(planned ran skipped) };
	}
	return {
		schema_version => $SCHEMA_VERSION, %{$o{host}},
		generated => $o{generated},
		programs => \@programs,
		tests => [map { { prog => $_->{prog}, name => $_->{name}, result => $_->{result},
				  defined $_->{reason} ? (reason => $_->{reason}) : () } } @{$r->{tests}}],
		data => $r->{data},
		bad_data => $r->{bad_data},
	};
}

1;
