package VMAB::Protocol;
# The guest protocol, host side, in one place.  suite/init.sh is the guest
# side.
#   In: the kernel command line tells /init what to run (cmdline):
#     vmab_variant=NAME vmab_modes=MODE[,MODE...] vmab_list=FILE[,FILE...]
#     vmab_cpus=N (the CPUs QEMU gave: /init fails a boot that sees fewer)
#     vmab_once=0 (the "once" programs in none of the modes: a guest that
#     runs a variant's later modes only, VMAB::Parts)
#   and, before them, a guest of its own list (VMAB::Parts) gets that
#   list's kernel arguments (movablecore=...), which /init does not read.
#   Out: /init writes to the results channel (ttyS1, apart from the kernel
#   console on ttyS0) one frame line around each program's TAP 13 output:
#     @@vmab hello variant=V kernel=K modes=M clocksource=C cpus=N
#     @@vmab begin mode=M prog=P
#     ...TAP from P, including "# @data {json}" lines...
#     @@vmab end mode=M prog=P rc=N ms=N clocksource=C
#     @@vmab done
#   and "@@vmab error WHY" for a mode it could not set up.
# VMAB::Tap reads the frames (parse_frame), VMAB::Stage::Boot and
# VMAB::Qemu's probe write the command line, VMAB::Fixtures writes frames
# for its broken boots (frame).
use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(cmdline frame parse_frame $CHANNEL);

# The guest's device for the results channel.
our $CHANNEL = '/dev/ttyS1';

# The fields each frame carries, in order; an end line from before the
# clocksource was kept has none.
my %FIELDS = (
	hello => [qw(variant kernel modes clocksource cpus)],
	begin => [qw(mode prog)],
	end => [qw(mode prog rc ms clocksource)],
	done => [],
);

# cmdline(variant => V, modes => 'a,b', list => FILE[,FILE], [cpus => N],
#         [once => 0|1]) -> the vmab_ part of the kernel command line.
# once => 0 adds vmab_once=0; the default (once) leaves the line as it was,
# so that the reuse keys of unsplit boots stay the same (VMAB::Reuse).
sub cmdline {
	my (%o) = @_;
	return "vmab_variant=$o{variant} vmab_modes=$o{modes} vmab_list=$o{list}"
		. (defined $o{cpus} ? " vmab_cpus=$o{cpus}" : '')
		. (defined $o{once} && !$o{once} ? ' vmab_once=0' : '');
}

# frame(kind, field => value, ...) -> "@@vmab KIND field=value ..." in the
# order of %FIELDS (a field not given is left out); frame(error => WHY).
sub frame {
	my ($kind, @kv) = @_;
	return "\@\@vmab error $kv[0]" if $kind eq 'error';
	my $f = $FIELDS{$kind} or die "no frame '$kind'\n";
	my %v = @kv;
	return join(' ', '@@vmab', $kind, map { "$_=$v{$_}" } grep { defined $v{$_} } @$f);
}

# parse_frame($line) -> (kind, {field => value}) for a frame line, else ():
# (error => {why}); an end line needs mode, prog, rc and ms, a begin line
# mode and prog.
sub parse_frame {
	my ($l) = @_;
	my ($kind, $rest) = $l =~ /^\@\@vmab (hello|begin|end|done|error)\b ?(.*)$/ or return ();
	return (error => { why => $rest }) if $kind eq 'error';
	my %v = map { split /=/, $_, 2 } grep { /=/ } split ' ', $rest;
	return () if $kind eq 'begin' && grep { !defined $v{$_} } qw(mode prog);
	return () if $kind eq 'end'
		&& (grep { !defined $v{$_} } qw(mode prog rc ms) or $v{rc} !~ /^\d+$/ or $v{ms} !~ /^-?\d+$/);
	return ($kind, \%v);
}

1;
