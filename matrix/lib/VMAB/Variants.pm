package VMAB::Variants;
# The variant table, matrix/variants.conf: every variant's name, fragments,
# run-time modes, boot budget and place in the report.  Every other list of
# variants or modes (build order, report order, mode order) is read from it,
# and what a mode's name means (swap, LRU) is read by mode_traits alone.
use strict;
use warnings;
use Exporter 'import';
use File::Basename qw(dirname);
use File::Spec;

our @EXPORT_OK = qw(load_variants select_variants report_order mode_order mode_traits guest_modes own_lists);

# matrix/variants.conf, found from this file (matrix/lib/VMAB/Variants.pm).
our $TABLE = File::Spec->rel2abs(dirname(__FILE__) . '/../../variants.conf');

# load_variants([$file]) -> [{name, fragments, modes, timeout, report,
# [guests], [own]}], in build order (the table's rows).  A modes column of
# several guests ("a/b,c": a slash between guests) gives modes (all of them,
# in the column's order) and guests ([[a], [b, c]]); see guest_modes.
# A guest written LIST:MODES ("zone:swap-classic,noswap-mglru") is a guest
# of its own list: it runs only suite/LIST.list, in those modes, booted
# with the kernel arguments that list's "# vmab-args:" line gives
# (VMAB::Parts); it goes to own ([{list => 'zone.list', modes => [...]}]),
# not to modes or guests, and its modes may be the other guests' too.
sub load_variants {
	my ($file) = @_;
	$file //= $TABLE;
	open(my $fh, '<', $file) or die "cannot read $file: $!\n";
	my (@v, %seen);
	while (my $line = <$fh>) {
		next if $line =~ /^\s*(#|$)/;
		my ($name, $frags, $modes, $timeout, $report, @extra) = split ' ', $line;
		die "$file:$.: want 'name fragments modes timeout report'\n"
			unless defined $report && !@extra && $timeout =~ /^\d+$/ && $report =~ /^\d+$/;
		die "$file:$.: $name is listed twice\n" if $seen{$name}++;
		my (@guests, @own);
		for my $g (split m{/}, $modes, -1) {
			if ($g =~ /^(\w+):(.*)$/) {
				push @own, { list => "$1.list", modes => [split /,/, $2] };
			} else {
				push @guests, [split /,/, $g];
			}
		}
		my @modes = map { @$_ } @guests;
		my %twice;
		die "$file:$.: an empty guest in '$modes'\n"
			if !@guests || grep { !@$_ } @guests, map { $_->{modes} } @own;
		die "$file:$.: a mode twice in '$modes'\n" if grep { $twice{$_}++ } @modes;
		for my $o (@own) {
			my %once;
			die "$file:$.: a mode twice in the guest of $o->{list}\n" if grep { $once{$_}++ } @{$o->{modes}};
		}
		die "$file:$.: two guests of one list in '$modes'\n" if do { my %l; grep { $l{$_->{list}}++ } @own };
		eval { mode_traits($_) for @modes, map { @{$_->{modes}} } @own; 1 } or die "$file:$.: $@";
		push @v, {
			name => $name,
			fragments => [split /,/, $frags],
			modes => \@modes,
			timeout => $timeout,
			report => $report,
			(@guests > 1 ? (guests => \@guests) : ()),
			(@own ? (own => \@own) : ()),
		};
	}
	die "$file: no variants\n" unless @v;
	return \@v;
}

# select_variants($all, "a,b"): keep the named ones, in table order.
sub select_variants {
	my ($all, $want) = @_;
	return $all unless defined $want && length $want;
	my %want = map { $_ => 1 } split /,/, $want;
	my %known = map { $_->{name} => 1 } @$all;
	my @bad = grep { !$known{$_} } sort keys %want;
	die "unknown variant(s): @bad (known: " .
		join(' ', map { $_->{name} } @$all) . ")\n" if @bad;
	return [grep { $want{$_->{name}} } @$all];
}

# report_order([$file]) -> the variant names in the order of the report column.
sub report_order {
	my ($file) = @_;
	return map { $_->{name} }
		sort { $a->{report} <=> $b->{report} } @{load_variants($file)};
}

# mode_order([$file]) -> every mode the table names, in the order they first
# appear (the report's order of modes).
sub mode_order {
	my ($file) = @_;
	my %seen;
	return grep { !$seen{$_}++ } map { @{$_->{modes}}, map { @{$_->{modes}} } @{$_->{own} // []} }
		@{load_variants($file)};
}

# own_lists(\@variants) -> { 'zone.list' => 1, ... }: the lists that some
# row runs in a guest of their own.  Those run nowhere else: a run that
# names one (--list) gives it to those guests, never to a variant's
# ordinary guests, which do not boot with its kernel arguments.
sub own_lists {
	my ($all) = @_;
	return { map { $_->{list} => 1 } map { @{$_->{own} // []} } @$all };
}

# mode_traits("noswap-mglru") -> { swap => 0, lru => 'mglru' }: the one place
# on the host that reads a mode's name (suite/init.sh does on the guest).
sub mode_traits {
	my ($mode) = @_;
	my ($swap, $lru) = ($mode // '') =~ /^(swap|noswap)-(classic|mglru)$/
		or die "unknown mode '" . ($mode // '') . "' (want swap-* or noswap-*, then -classic or -mglru)\n";
	return { swap => $swap eq 'swap' ? 1 : 0, lru => $lru };
}

# guest_modes($variant) -> [[modes of guest 1], ...]: the guests the
# variant boots as (VMAB::Parts), one unless its modes column says more.
sub guest_modes {
	my ($v) = @_;
	return $v->{guests} // [$v->{modes}];
}

# A variant (or a part of one, VMAB::Parts) that runs a swap mode gets a
# swap disk.
sub wants_swap_disk {
	my ($v) = @_;
	return scalar grep { mode_traits($_)->{swap} } @{$v->{modes}};
}

1;
