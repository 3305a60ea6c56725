package VMAB::Needs;
# What a guest test declares it needs, read from the suite's sources, in
# one form everywhere: a comma-separated list of needs,
#   a CONFIG_ symbol          CONFIG_MAP_DROPPABLE (on), CONFIG_VRANGE=n (off)
#   a short name for one      vrange, madv_free, droppable, thp, ksm, memcg,
#                             lru_gen (no_vrange, no_madv_free...: the
#                             option off)
#   the run-time mode         swap (an active swap device), noswap;
#                             mglru, classic (the LRU kind)
# and nothing (an empty list) for a test that needs nothing, whatever its
# name says.  Where it is declared:
#   - a C program: one line beside the test, before or after it,
#       VMAB_NEEDS("swap_cache_page_is_purged", "vrange,swap");
#     (suite/lib/needs.h; the first argument is the test's name in its
#     program, as the TAP reports it, and may hold * globs:
#     "droppable_*");
#   - a shell program of the suite (suite/stressng.sh): the same line as a
#     comment, # VMAB_NEEDS("ksm", "ksm");
#   - suite/selftests.list: needs=thp,swap on the vmselftest line, which
#     vmselftest.sh also checks in the guest; a line without needs= declares
#     that the selftest needs nothing.
# Every test the suite has is declared (matrix/t/suite_names.t checks it,
# and that every declaration matches a test).  Declarations add up: a test
# needs what every line that matches it lists ("vr.*" says vrange for a
# whole fixture, "vr.swap_*" adds swap for some of its tests), so a glob
# can only add needs, never take one back; two lines that disagree on a
# need (vrange and no_vrange) are an error (needs_of()).
# The judge (VMAB::Expectations) takes the declaration; a test's name says
# nothing to it.
use strict;
use warnings;
use Exporter 'import';
use VMAB::File qw(slurp);

our @EXPORT_OK = qw(parse_needs load_declarations needs_of glob_re %SHORT);

# The short names and the option each stands for.
our %SHORT = (
	vrange => 'CONFIG_VRANGE', madv_free => 'CONFIG_MADV_FREE', droppable => 'CONFIG_MAP_DROPPABLE',
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
# "prog/name", needs => {...}, where => "file:line" }] from the C programs,
# the shell programs and suite/selftests.list, in file order.  Dies at a
# malformed one.
sub load_declarations {
	my ($suite) = @_;
	my @d;
	for my $src (sort(glob("$suite/*.c")), sort(glob("$suite/*.sh"))) {
		my ($prog, $ext) = $src =~ m{.*/(\w+)\.(c|sh)$} or next;
		my $lead = $ext eq 'c' ? qr/^\s*/ : qr/^\s*#\s*/;
		my $n = 0;
		for my $l (split /\n/, slurp($src)) {
			$n++;
			next unless $l =~ /${lead}VMAB_NEEDS\s*\(/;
			my ($glob, $needs) = $l =~ /${lead}VMAB_NEEDS\s*\(\s*"([\w.*]+)"\s*,\s*"([^"]*)"\s*\)\s*;/
				or die "$src:$n: want VMAB_NEEDS(\"test\", \"need,need\"); on one line\n";
			push @d, declaration("$prog/$glob", $needs, "suite/$prog.$ext:$n");
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

# needs_of(\@declarations, "prog/name") -> () when no declaration matches
# the test, else (needs, where, conflicts): the needs of every declaration
# that matches, added up; where they are ("suite/x.c:3, suite/x.c:9");
# and, as words, every need two of them disagree on ("CONFIG_VRANGE on at
# suite/x.c:3, off at suite/x.c:9"), which is empty unless the sources
# are wrong.  Rows without needs (matrix/known.tsv's) are passed over.
sub needs_of {
	my ($decls, $id) = @_;
	my @d = grep { $_->{needs} && $id =~ $_->{test} } @$decls;
	return () unless @d;
	my (%need, %from, @conflicts);
	for my $d (@d) {
		for my $k (sort keys %{$d->{needs}}) {
			my $v = $d->{needs}{$k};
			if (exists $need{$k} && $need{$k} ne $v) {
				push @conflicts, "$k " . word($k, $need{$k}) . " at $from{$k}, " . word($k, $v) . " at $d->{where}";
				next;
			}
			($need{$k}, $from{$k}) = ($v, $d->{where}) unless exists $need{$k};
		}
	}
	return (\%need, join(', ', map { $_->{where} } @d), \@conflicts);
}

sub word {
	my ($k, $v) = @_;
	return $k eq 'lru' ? $v : $v ? 'on' : 'off';
}

sub declaration {
	my ($glob, $needs, $where) = @_;
	my $n = eval { parse_needs($needs) } or die "$where: $@";
	return { test => glob_re($glob), glob => $glob, needs => $n, where => $where };
}

1;
