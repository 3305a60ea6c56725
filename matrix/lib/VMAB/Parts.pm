package VMAB::Parts;
# A variant booted as several guests ("parts"), each running some of its
# modes, and the parts' logs merged into the one boot the judge reads.
#
# Why: two guests run at once on two cores, and the boot phase ends with
# its longest guest.  debug (KASAN, lockdep) alone took about as long as
# the seven other variants one after another; split in two, its halves
# start first, one in each slot, and the others fill in behind them, so
# that the two slots end close together.  The split is written in
# matrix/variants.conf (a slash between guests in the modes column), not
# computed: the modes are not equally long (debug's swap-classic holds the
# "once" programs and takes about half the variant), so where to cut is a
# measurement, and a table row says it where a rule would hide it; the
# parts and their reuse keys are then the same from run to run.
#
# The rules:
#   - the "once" programs of the run lists run in the part that holds the
#     variant's first mode; every other part boots with vmab_once=0
#     (suite/init.sh), so they still run once per variant;
#   - each part boots in its own log folder, out/logs/V/part-N, with its
#     own console, results, swap image and reuse key (VMAB::Reuse); a
#     variant of one guest keeps out/logs/V as before;
#   - each part has the variant's whole timeout: it does a part of the
#     whole's work, and the timeout is a guard against a hang, not a
#     budget to share out (a hung part costs no more than a hung whole);
#   - when every part has ended, their logs are merged into out/logs/V
#     (merge_logs): one hello, every part's frames, one "done" only if
#     every part finished; the judge, vmab judge and the report read that
#     merge as they read one guest's logs, and a part that did not finish
#     leaves the variant TIMEOUT, PANIC or BOOTFAIL as one guest would;
#   - a guest of its own list (a row's LIST:MODES, VMAB::Variants) is one
#     more part, planned only in a run whose lists name that list: it runs
#     that list alone, in its own modes, with the kernel arguments the list
#     asks for (a test that needs its own boot: suite/zone.list's
#     movablecore=), and its results merge with the others' like any
#     part's, so that the variant still gets one verdict.  It is short: it
#     starts after the variant's other guests (VMAB::Stage::Boot).
use strict;
use warnings;
use Exporter 'import';
use VMAB::Classify qw(classify);
use VMAB::File qw(slurp spew);
use VMAB::Protocol qw(frame parse_frame);
use VMAB::Tap qw(parse_results);
use VMAB::Variants qw(guest_modes);

our @EXPORT_OK = qw(plan_parts list_args merge_logs merge_results merge_console part_failures);

# plan_parts($variant, $logs, [lists => [run's list names], suite => dir])
#   -> [{ n, of, modes => [...], once => 0|1, dir, what, [list, args] }]:
# the guests the variant boots as (VMAB::Variants::guest_modes), then,
# for each guest of its own list (the row's LIST:MODES, VMAB::Variants)
# whose list this run names, one more: list is its list file in the
# guest (/suite/LIST.list), args the kernel arguments of that list's
# "# vmab-args:" line (list_args), once 0.
sub plan_parts {
	my ($v, $logs, %o) = @_;
	my $guests = guest_modes($v);
	my %run = map { $_ => 1 } @{$o{lists} // []};
	my @own = grep { $run{$_->{list}} } @{$v->{own} // []};
	my $of = @$guests + @own;
	my $first = $v->{modes}[0];
	my @p;
	for my $i (1 .. $of) {
		my ($m, $own) = $i <= @$guests ? ($guests->[$i - 1]) : ($own[$i - @$guests - 1]{modes}, $own[$i - @$guests - 1]);
		push @p, {
			n => $i, of => $of, modes => $m,
			once => !$own && (grep { $_ eq $first } @$m) ? 1 : 0,
			dir => $of == 1 ? "$logs/$v->{name}" : "$logs/$v->{name}/part-$i",
			what => $of == 1 ? $v->{name} : "$v->{name} guest $i of $of ("
				. ($own ? "$own->{list}: " : '') . join(',', @$m) . ')',
			($own ? (list => "/suite/$own->{list}", args => list_args("$o{suite}/$own->{list}")) : ()),
		};
	}
	return \@p;
}

# list_args($file) -> the kernel arguments a program list asks for, from
# its "# vmab-args: ARGS" line ('' without one): what a guest of its own
# (VMAB::Variants) boots with, beside the driver's own arguments.
sub list_args {
	my ($file) = @_;
	my ($args) = slurp($file) =~ /^#\s*vmab-args:[ \t]*(.*?)\s*$/m;
	return $args // '';
}

# merge_results($name, @texts) -> one results log from the parts' results
# logs (VMAB::Protocol's frames), in part order: a hello line if every part
# said hello (the first part's, naming every part's modes; a part that
# names another variant than $name gives its own, so that the classifier
# sees it), every frame but the hellos and dones, the parts that finished
# first and those that did not last (so that a program a crash cut off
# stays the last one and is parsed as cut off), and "done" only if every
# part said it.
sub merge_results {
	my ($name, @texts) = @_;
	my (@hello, @done, @finished, @unfinished);
	for my $t (@texts) {
		my ($hello, $done, @body);
		for my $l (split /\r?\n/, $t) {
			my ($kind, $v) = parse_frame($l);
			if (($kind // '') eq 'hello') {
				$hello //= $v;
			} elsif (($kind // '') eq 'done') {
				$done = 1;
			} else {
				push @body, $l;
			}
		}
		push @hello, $hello;
		push @done, $done;
		push @{$done ? \@finished : \@unfinished}, @body;
	}
	my @out;
	if (!grep { !defined } @hello) {
		my ($h) = grep { ($_->{variant} // '') ne $name } @hello;
		my %seen;	# a guest of its own list repeats others' modes
		$h = { %{$h // $hello[0]}, modes => join(',', grep { !$seen{$_}++ }
							 map { split /,/, $_->{modes} // '' } @hello) };
		push @out, frame(hello => %$h);
	}
	push @out, @finished, @unfinished;
	push @out, frame('done') unless grep { !$_ } @done;
	return join('', map { "$_\n" } @out);
}

# merge_console(\@parts, @texts) -> the parts' consoles one after another,
# each after a line naming its part and its own log (no splat or panic
# pattern of VMAB::Classify matches it).
sub merge_console {
	my ($parts, @texts) = @_;
	my $s = '';
	for my $i (0 .. $#$parts) {
		my $t = $texts[$i] // '';
		$s .= "vmab: ===== $parts->[$i]{what}: $parts->[$i]{dir}/console.log =====\n$t";
		$s .= "\n" if length $t && $t !~ /\n\z/;
	}
	return $s;
}

# merge_logs($dir, \@parts): the parts' console.log and results.log merged
# into $dir's (the variant's log folder).
sub merge_logs {
	my ($dir, $parts) = @_;
	my @c = map { slurp("$_->{dir}/console.log") } @$parts;
	my @r = map { slurp("$_->{dir}/results.log") } @$parts;
	my ($name) = $dir =~ m{([^/]+)/*\z};
	spew("$dir/console.log", merge_console($parts, @c));
	spew("$dir/results.log", merge_results($name, @r));
}

# part_failures($name, \@parts, \@ends) -> why lines, one for each part
# that was not PASS on its own (classified alone, VMAB::Classify), naming
# its outcome and its logs; $ends->[i] is { timed_out, flooded, died }.
sub part_failures {
	my ($name, $parts, $ends) = @_;
	my @why;
	for my $i (0 .. $#$parts) {
		my ($p, $e) = ($parts->[$i], $ends->[$i] // { died => 1 });
		my $c = classify(console => slurp("$p->{dir}/console.log"),
				 results => parse_results(slurp("$p->{dir}/results.log")),
				 timed_out => $e->{timed_out}, variant => $name);
		my $out = $e->{died} ? 'its driver process died' : $e->{flooded} ? 'console flood'
			: $c->{outcome};
		next if $out eq 'PASS';
		push @why, "$p->{what}: $out; its logs: $p->{dir}/console.log, $p->{dir}/results.log";
	}
	return @why;
}

1;
