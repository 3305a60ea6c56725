package VMAB::Results;
# out/results/: one TAP stream per variant (V.tap) and matrix.json, the
# machine-readable record of every test x variant x mode outcome, every
# phase's duration, the accelerator, versions and all "@data" figures.
#
# matrix.json = {
#   schema_version (2; none: 1), run_id (the latest run: its "generated"),
#   generated, accelerator, qemu_version, host_kernel, tarball,
#   variants => { V => {     (VMAB::Record::variant_record)
#     provenance => { run_id (the run that made this record: a partial
#       run, V=both, leaves the other variants' records and theirs),
#       project_commit ("sha" or "sha-dirty"), tree_commit, patch_digest
#       (VMAB::Tree::patch_digest), config_sha256 (its .config),
#       qemu_version, compiler (the kernel's LINUX_COMPILER) }
#       (VMAB::Provenance),
#     outcome, why => [...], splats => [...], kernel_release, run_at,
#     results => [ {variant, mode, test, status, reason, excerpt} ],
#     clocksource (the guest's clocksource when its last program ended, else
#     at hello), clocksources => [every one it named, in order: one unless
#     the kernel switched clocks mid-run],
#     phases => { config => s, build => s, boot => s, chain_copy => s,
#                 build_from => V (whose objects it started from, itself
#                 or "empty"), objects, objects_rebuilt },
#     problems => [ {mode, id, want, got, what, why} ],   # VMAB::Expectations
#     modes => { MODE => {
#       programs => { PROG => { rc, ms, planned, ran, clocksource } },
#       data => [ { prog, ...figures... } ] } } } } }
use strict;
use warnings;
use Exporter 'import';
use File::Path qw(make_path);
use JSON::PP;
use VMAB::File qw(slurp spew);
use VMAB::Record qw(to_tap);

our @EXPORT_OK = qw(load_matrix load_json save_matrix write_tap exit_status);

sub json { JSON::PP->new->canonical->pretty }

# load_json($file, $what) -> the decoded file, which exists; an empty one or
# one that is not JSON (cut off, edited by hand) dies, naming the file and
# what it should have been ("matrix.json").
sub load_json {
	my ($file, $what) = @_;
	my $text = slurp($file);
	die "$file is empty: not a $what (remove it to start afresh)\n" unless length $text;
	my $x = eval { json()->decode($text) };
	die "$file is not valid JSON (" . ($@ =~ s/ at \S+ line \d+\.?\n//r =~ s/\s+$//r) .
		"): fix it or remove it to start afresh\n" unless $x;
	return $x;
}

# load_matrix($file) -> the matrix; an empty one when there is no file
# yet.  A file that is not a matrix (cut off, edited by hand) dies: it is
# never silently replaced by an empty one, which would lose every result.
sub load_matrix {
	my ($file) = @_;
	return { variants => {} } unless -e $file;
	my $m = load_json($file, 'matrix.json');
	die "$file is not a matrix.json: no \"variants\" object\n"
		unless ref $m eq 'HASH' && ref($m->{variants} // {}) eq 'HASH';
	$m->{variants} //= {};
	return $m;
}

sub save_matrix {
	my ($file, $m) = @_;
	(my $dir = $file) =~ s{/[^/]+$}{};
	make_path($dir);
	spew("$file.tmp", json()->encode($m));
	rename("$file.tmp", $file) or die "rename $file: $!\n";
}

# exit_status($matrix, [names], judge => BOOL) -> (status, @not_clean):
# the variants that are not PASS, or, when judging, have unexpected results,
# each as "name (OUTCOME[, N unexpected])"; status 1 when any is not PASS
# (SPEC 7: make matrix), or, when judging, has an unexpected result.
sub exit_status {
	my ($m, $names, %o) = @_;
	my ($status, @bad) = (0);
	for my $n (@$names) {
		my $x = $m->{variants}{$n} // { outcome => 'MISSING', problems => [] };
		my $p = scalar @{$x->{problems} // []};
		next if $x->{outcome} eq 'PASS' && !$p;
		$status = 1 if $x->{outcome} ne 'PASS' || $o{judge};
		# The results by name, so that the last lines of a log (all CI
		# shows) say which test to look at.
		my @id = map { join ' ', grep { defined } $_->{mode}, $_->{id} } @{$x->{problems} // []};
		splice @id, 5, @id - 5, '...' if @id > 5;
		push @bad, "$n ($x->{outcome}" . ($p ? ", $p unexpected: " . join(', ', @id) : '') . ')';
	}
	return ($status, @bad);
}

# write_tap($dir, $variant, @records): out/results/V.tap
sub write_tap {
	my ($dir, $variant, @records) = @_;
	make_path($dir);
	spew("$dir/$variant.tap", to_tap($variant, @records));
}

1;
