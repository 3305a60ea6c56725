package VMAB::Report::Data;
# The report's data layer: matrix.json read into the records the analysis
# (VMAB::Report::Goals) and the sections use, and nothing formatted.
#   variant_names($m)             -> the variants, in report order
#   ordered(\@order, @names)      -> @names in that order, the rest sorted after
#   with_seen(\@base, @names)     -> @base, then the @names it lacks, sorted, once
#   data_of_kind($m, $kind[, $keep]) -> ({ variant, mode, d => datum }, ...)
#   all_data($m)                  -> the scenario records (kind "scenario")
#   reclaim_order($m, $design, $thp) -> suite/reclaim_test.c's reclaim-order
#                                    records of one design and THP setting
#   dropped($m, $design, $scenario) -> suite/droppable_test.c's records
#                                    (kind "droppable") of one scenario
#   of(\@data, $design, @scenarios) -> those of one design and those scenarios
#   collect($m, $bench)           -> { variant => { mode => [bench data] } }
#   collect_stressng($m)          -> { variant => { stressor => datum } }
#   columns($m | \@data)          -> the designs the report gives a column:
#                                    A and B always, others when measured
#   median(@values), tally($key, @records), range_str($fmt, @values)
#   host_bench($file)             -> make host-bench's record (out/results/
#                                    host-bench.json, docs/host-bench.md), undef
#                                    without the file: not measured; a corrupt
#                                    one dies, as a corrupt matrix.json does
#   host_matrix($host_bench)      -> its data as a matrix of one variant and
#                                    mode, both "host", for the readers above
use strict;
use warnings;
use Exporter 'import';
use VMAB::Designs qw(designs);
use VMAB::Results qw(load_json);
use VMAB::Variants qw(report_order mode_order);

our @EXPORT_OK = qw(variant_names ordered with_seen data_of_kind all_data reclaim_order dropped of collect collect_stressng
	columns median tally range_str where host_bench host_matrix $NOT_MEASURED @VARIANT_ORDER @MODE_ORDER);

our @VARIANT_ORDER = report_order();	# matrix/variants.conf
our @MODE_ORDER = mode_order();
our $NOT_MEASURED = 'not measured in this run';

sub ordered {
	my ($order, @names) = @_;
	my %rank;
	@rank{@$order} = (0 .. $#$order);
	return sort { ($rank{$a} // 1e9) <=> ($rank{$b} // 1e9) || $a cmp $b } @names;
}

sub with_seen {
	my ($base, @names) = @_;
	my %seen = map { $_ => 1 } @$base;
	return (@$base, sort grep { !$seen{$_}++ } @names);
}

sub variant_names {
	my ($m) = @_;
	return ordered(\@VARIANT_ORDER, keys %{$m->{variants} // {}});
}

sub data_of_kind {
	my ($m, $kind, $keep) = @_;
	my @out;
	my $vs = $m->{variants} // {};
	for my $v (ordered(\@VARIANT_ORDER, keys %$vs)) {
		my $modes = $vs->{$v}{modes} // {};
		for my $mode (ordered(\@MODE_ORDER, keys %$modes)) {
			push @out, map { { variant => $v, mode => $mode, d => $_ } }
				grep { ref $_ eq 'HASH' && ($_->{kind} // '') eq $kind && (!$keep || $keep->($_)) }
				@{$modes->{$mode}{data} // []};
		}
	}
	return @out;
}

sub all_data { return data_of_kind($_[0], 'scenario') }

# ("off", "always", "madvise"; a record without one is "off")
sub reclaim_order {
	my ($m, $design, $thp) = @_;
	return data_of_kind($m, 'reclaim_order',
			    sub { ($_[0]{design} // '') eq $design && ($_[0]{thp} // 'off') eq $thp });
}

sub dropped {
	my ($m, $design, $sc) = @_;
	return data_of_kind($m, 'droppable', sub { ($_[0]{design} // '') eq $design && ($_[0]{scenario} // '') eq $sc });
}

sub of {
	my ($data, $design, @scn) = @_;
	my %want = map { $_ => 1 } @scn;
	return grep { ($_->{d}{design} // '') eq $design && $want{$_->{d}{scenario} // ''} } @$data;
}

sub where { my ($x) = @_; return "$x->{variant}/$x->{mode}" }

sub collect {
	my ($m, $bench) = @_;
	my %out;
	for my $x (data_of_kind($m, 'bench', sub { ($_[0]{bench} // '') eq $bench })) {
		push @{$out{$x->{variant}}{$x->{mode}}}, $x->{d};
	}
	return \%out;
}

sub collect_stressng {
	my ($m) = @_;
	my %out;
	$out{$_->{variant}}{$_->{d}{stressor}} = $_->{d}
		for data_of_kind($m, 'stressng', sub { defined $_[0]{stressor} });
	return \%out;
}

sub columns {
	my ($src) = @_;
	my %have;
	if (ref $src eq 'ARRAY') {
		$have{$_->{d}{design} // ''} = 1 for @$src;
	} else {
		$have{$_} = 1 for VMAB::Designs::measured_designs($src);
	}
	return map { $_->{key} } grep { $_->{core} || $have{$_->{key}} } designs();
}

sub host_bench {
	my ($file) = @_;
	return undef unless -e $file;
	my $h = load_json($file, 'host-bench.json');
	die "$file is not a host-bench.json: no \"host_kernel\" or no \"data\" list\n"
		unless ref $h eq 'HASH' && defined $h->{host_kernel} && ref $h->{data} eq 'ARRAY';
	return $h;
}

sub host_matrix {
	my ($h) = @_;
	return { variants => { host => { modes => { host => { data => $h->{data} } } } } };
}

# The numbers among the values, sorted; their median (undef: none).
sub numbers { return sort { $a <=> $b } grep { defined && /^-?[\d.]+$/ } @_ }
sub median { my @v = numbers(@_); return @v ? $v[int($#v / 2)] : undef }

# Counts of the values a key took, "sigbus ×12, zero ×3".
sub tally {
	my ($key, @xs) = @_;
	my %n;
	$n{$_->{d}{$key} // 'null'}++ for @xs;
	return join(', ', map { "$_ ×$n{$_}" } sort keys %n);
}

sub range_str {
	my ($fmt, @v) = @_;
	@v = numbers(@v) or return 'no figures';
	my $med = median(@v);
	return $fmt->($med) if $v[0] == $v[-1];
	return sprintf('%s (median; %s to %s, %d runs)', $fmt->($med),
		$fmt->($v[0]), $fmt->($v[-1]), scalar @v);
}

1;
