package VMAB::Classify;
# Classifying a boot from what the host saw: the kernel console (ttyS0) and the
# results channel (ttyS1).  Every boot ends in exactly one outcome:
#   PASS      the suite ran to "@@vmab done", no test failed, no splat
#   FAIL      it ran to the end, but a test failed, a program crashed or is
#             missing, or the kernel printed a splat; or /init gave up
#             with an "@@vmab error" (a mode it could not set up)
#   PANIC     the kernel panicked
#   TIMEOUT   /init started but the run did not finish in time
#   BOOTFAIL  /init never started (the kernel died or hung first)
use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(find_splats classify);

# Lines that mean the kernel found a fault in itself.  Lockdep and
# DEBUG_ATOMIC_SLEEP reports start with "WARNING:" or "BUG:".
my @SPLAT = (
	qr/\bWARNING:/, qr/\bBUG:/, qr/\bKASAN:/, qr/\bUBSAN:/,
	qr/general protection fault/, qr/\bOops\b/,
	qr/INFO: (?:possible|task .* blocked|rcu)/,
	qr/Call Trace:/,
);

# An OOM kill dumps a stack with "Call Trace:" by design: a stack inside an
# OOM report is not a splat (anything else in it, like WARNING:, still is).
my $OOM_START = qr/invoked oom-killer:/;
my $OOM_END = qr/(?:Out of memory|Memory cgroup out of memory): Killed process|oom_reaper:|oom-kill:constraint|Out of memory and no killable processes/;

# find_splats($console_text) -> list of offending lines (first line of each)
sub find_splats {
	my ($text) = @_;
	my (@found, $in_oom);
	for my $l (split /\r?\n/, $text) {
		if ($l =~ $OOM_START) { $in_oom = 1; next }
		if ($in_oom && $l =~ $OOM_END) { $in_oom = 0; next }
		for my $re (@SPLAT) {
			next unless $l =~ $re;
			next if $in_oom && $l =~ /Call Trace:/;
			(my $clean = $l) =~ s/^\[\s*[\d.]+\]\s*//;
			push @found, $clean;
			last;
		}
	}
	return @found;
}

# classify(console => TEXT, results => PARSED (VMAB::Tap::parse_results),
#          timed_out => BOOL, variant => NAME) -> { outcome => ..., why => [...], splats => [...] }
# With variant, the name /init reports in its hello line must be the one
# booted: a kernel or command line from another variant is a FAIL.
sub classify {
	my (%o) = @_;
	my $console = $o{console} // '';
	my $r = $o{results};
	my @splats = find_splats($console);
	my @why;
	my $outcome;
	if ($console =~ /Kernel panic - not syncing:?\s*([^\r\n]*)/) {
		$outcome = 'PANIC';
		push @why, "kernel panic: $1";
	} elsif (!$r->{hello}) {
		$outcome = 'BOOTFAIL';
		push @why, $o{timed_out} ? 'no word from /init before the timeout'
			: 'the guest stopped before /init said hello';
	} elsif (!$r->{done} && @{$r->{errors}}) {
		$outcome = 'FAIL';	# /init gave up: it says why
		push @why, "guest error: $_" for @{$r->{errors}};
	} elsif (!$r->{done}) {
		$outcome = 'TIMEOUT';
		push @why, $o{timed_out} ? 'the suite did not finish before the timeout'
			: 'the guest stopped before the suite finished';
		push @why, "guest error: $_" for @{$r->{errors}};
	} else {
		push @why, "guest error: $_" for @{$r->{errors}};
		push @why, "splat: $_" for @splats;
		for my $p (@{$r->{programs}}) {
			my $at = "$p->{mode}/$p->{prog}";
			if ($p->{rc} == 127) {
				push @why, "$at: missing from the initramfs";
				next;
			}
			# kselftest programs exit 1 when a test failed, 4 (KSFT_SKIP)
			# when all they ran was skipped; anything else is a crash.
			push @why, "$at: exit status $p->{rc}"
				if $p->{rc} > 1 && !($p->{rc} == 4 && all_skipped($p));
			push @why, "$at: no TAP plan" unless $p->{planned};
			push @why, "$at: ran $p->{ran} of $p->{planned} planned tests"
				if $p->{planned} && $p->{ran} != $p->{planned};
		}
		my @failed = grep { $_->{result} eq 'fail' } @{$r->{tests}};
		push @why, scalar(@failed) . ' test(s) failed' if @failed;
		$outcome = @why ? 'FAIL' : 'PASS';
	}
	my $said = $r->{hello} && $r->{hello}{variant};
	if (defined $o{variant} && $r->{hello} && ($said // '') ne $o{variant}) {
		unshift @why, "the guest says it is variant '" . ($said // '') .
			"', but $o{variant} was booted";
		$outcome = 'FAIL' if $outcome eq 'PASS';
	}
	return { outcome => $outcome, why => \@why, splats => \@splats };
}

# Did this run of the program report tests, every one of them a skip?
sub all_skipped {
	my ($p) = @_;
	return $p->{ran} && $p->{skipped} == $p->{ran};
}

1;
