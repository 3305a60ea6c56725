package VMAB::Variants;
# The variant table: matrix/variants.conf.
use strict;
use warnings;
use Exporter 'import';

our @EXPORT_OK = qw(load_variants select_variants);

sub load_variants {
	my ($file) = @_;
	open(my $fh, '<', $file) or die "cannot read $file: $!\n";
	my @v;
	while (my $line = <$fh>) {
		next if $line =~ /^\s*(#|$)/;
		my ($name, $frags, $modes, $timeout) = split ' ', $line;
		die "$file:$.: want 'name fragments modes timeout'\n"
			unless defined $timeout && $timeout =~ /^\d+$/;
		push @v, {
			name => $name,
			fragments => [split /,/, $frags],
			modes => [split /,/, $modes],
			timeout => $timeout,
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

# A variant that runs a swap mode gets a swap disk.
sub wants_swap_disk {
	my ($v) = @_;
	return scalar grep { /^swap-/ } @{$v->{modes}};
}

1;
