package VMAB::Needs;
# What a guest test declares it needs, read from the suite's sources, in
# one form everywhere: a comma-separated list of needs,
#   a CONFIG_ symbol          CONFIG_MAP_DROPPABLE (on), CONFIG_VRANGE=n (off)
#   a short name for one      vrange, madv_free, thp, ksm, memcg, lru_gen
#                             (no_vrange, no_madv_free...: the option off)
#   the run-time mode         swap (an active swap device), noswap;
#                             mglru, classic (the LRU kind)
# and nothing (an empty list) for a test that needs nothing, whatever its
# name says.  Where it is declared:
#   - a C program: one line beside the test, before or after it,
#       VMAB_NEEDS("swap_cache_page_is_purged", "vrange,swap");
#     (suite/lib/needs.h; the first argument is the test's name in its
#     program, as the TAP reports it, and may hold * globs:
#     "droppable_*");
#   - suite/selftests.list: needs=thp,swap on the vmselftest line, which
#     vmselftest.sh also checks in the guest; a line without needs= declares
#     that the selftest needs nothing.
# The judge (VMAB::Expectations) takes a declaration over what a test's name
# and skip reason suggest.
use strict;
use warnings;
use Exporter 'import';
use VMAB::File qw(slurp);

our @EXPORT_OK = qw(parse_needs load_declarations glob_re %SHORT);

# The short names and the option each stands for.
our %SHORT = (
	vrange => 'CONFIG_VRANGE', madv_free => 'CONFIG_MADV_FREE',
	thp => 'CONFIG_TRANSPARENT_HUGEPAGE', ksm => 'CONFIG_KSM',
	memcg => 'CONFIG_MEMCG', lru_gen => 'CONFIG_LRU_GEN',
);

# parse_needs("vrange,swap") -> { CONFIG_VRANGE => 1, swap => 1 }:
# CONFIG_X => 1 (on) | 0 (off), swap => 1 | 0, lru => 'mglru' | 'classic'.
# Dies naming the need it does not know.
sub parse_needs {
	my ($s) = @_;
	my %need;
	for my $w (grep { length } split /\s*,\s*/, $s // '') {
		if ($w =~ /^(CONFIG_[A-Z0-9_]+)(?:=([yn]))?$/) {
			$need{$1} = ($2 // 'y') eq 'y' ? 1 : 0;
		} elsif ($w =~ /^(no_)?(\w+)$/ && $SHORT{$2}) {
			$need{$SHORT{$2}} = $1 ? 0 : 1;
		} elsif ($w =~ /^(no)?swap$/) {
			$need{swap} = $1 ? 0 : 1;
		} elsif ($w =~ /^(mglru|classic)$/) {
			$need{lru} = $1;
		} else {
			die "unknown need '$w' (want CONFIG_X[=n], swap, noswap, mglru, classic, or one of "
				. join(' ', sort keys %SHORT) . ")\n";
		}
	}
	return \%need;
}

# glob_re("vr.swap*") -> qr/^vr\.swap.*$/: a test glob (here and in
# matrix/known.tsv) as a regex.
sub glob_re {
	my ($g) = @_;
	(my $re = quotemeta $g) =~ s/\\\*/.*/g;
	return qr/^$re$/;
}

# load_declarations($suite_dir) -> [{ test => qr/^prog\/name$/, glob =>
# "prog/name", needs => {...}, where => "file:line" }] from the C programs
# and suite/selftests.list, in file order.  Dies at a malformed one.
sub load_declarations {
	my ($suite) = @_;
	my @d;
	for my $c (sort glob("$suite/*.c")) {
		(my $prog = $c) =~ s{.*/(\w+)\.c$}{$1};
		my $n = 0;
		for my $l (split /\n/, slurp($c)) {
			$n++;
			next unless $l =~ /^\s*VMAB_NEEDS\s*\(/;
			my ($glob, $needs) = $l =~ /^\s*VMAB_NEEDS\s*\(\s*"([\w.*]+)"\s*,\s*"([^"]*)"\s*\)\s*;/
				or die "$c:$n: want VMAB_NEEDS(\"test\", \"need,need\"); on one line\n";
			push @d, declaration("$prog/$glob", $needs, "suite/$prog.c:$n");
		}
	}
	my $list = "$suite/selftests.list";
	if (-e $list) {
		my $n = 0;
		for my $l (split /\n/, slurp($list)) {
			$n++;
			my ($name, $rest) = $l =~ /^\s*(?:once\s+)?vmselftest\s+(\S+)(.*)$/ or next;
			my ($needs) = $rest =~ /\sneeds=(\S+)/;
			push @d, declaration("vmselftest/$name", $needs // '', "suite/selftests.list:$n");
		}
	}
	return \@d;
}

sub declaration {
	my ($glob, $needs, $where) = @_;
	my $n = eval { parse_needs($needs) } or die "$where: $@";
	return { test => glob_re($glob), glob => $glob, needs => $n, where => $where };
}

1;
