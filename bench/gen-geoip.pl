#!/usr/bin/perl
# Writes two MaxMind DB files of a realistic size for bench/geoip-micro.ts and for wrk runs with
# GEOIP_ASN_DB / GEOIP_COUNTRY_DB set (they are not test fixtures: those are tests/fixtures/geoip/):
#   asn.mmdb      DB-IP ASN Lite's shape: every /18 of 1.0.0.0–223.255.255.255 and 65,536 IPv6
#                 /32s, each with an ASN and an organization name (50,000 distinct ASNs)
#   country.mmdb  GeoLite2-Country's shape: the same networks, records with continent, country and
#                 registered_country, each with names in eight languages (as the real files carry)
# Usage: perl bench/gen-geoip.pl DIR   (needs Debian's libmaxmind-db-writer-perl; about a minute)
use strict;
use warnings;
use utf8;
use MaxMind::DB::Writer::Tree;

my $dir = shift // die "usage: perl bench/gen-geoip.pl DIR\n";
my %types = (
    autonomous_system_number       => 'uint32',
    autonomous_system_organization => 'utf8_string',
    code                           => 'utf8_string',
    continent                      => 'map',
    country                        => 'map',
    registered_country             => 'map',
    geoname_id                     => 'uint32',
    is_in_european_union           => 'boolean',
    iso_code                       => 'utf8_string',
    names                          => 'map',
    map { $_ => 'utf8_string' } qw(de en es fr ja pt-BR ru zh-CN),
);
my @languages = qw(de en es fr ja pt-BR ru zh-CN);

sub tree {
    my ($type) = @_;
    return MaxMind::DB::Writer::Tree->new(
        ip_version               => 6,
        record_size              => 28,
        database_type            => $type,
        languages                => \@languages,
        description              => { en => "Network Tools API benchmark database ($type)" },
        map_key_type_callback    => sub { $types{ $_[0] } // die "no type for $_[0]\n" },
        remove_reserved_networks => 0,
    );
}

sub names { my ($what) = @_; return { map { $_ => "$what ($_)" } @languages }; }

my @countries = map {
    my $code = chr(65 + int($_ / 26)) . chr(65 + $_ % 26);
    my $place = { geoname_id => 1000 + $_, iso_code => $code, names => names("Country $code") };
    {
        continent          => { code => 'EU', geoname_id => 6255148, names => names('Europe') },
        country            => { %$place, is_in_european_union => ($_ % 3 == 0 ? 1 : 0) },
        registered_country => $place,
    }
} 0 .. 249;

my $asn     = tree('DBIP-ASN-Lite (compat=GeoLite2-ASN)');
my $country = tree('GeoLite2-Country');
my $n       = 0;
my $insert  = sub {
    my ($network) = @_;
    my $number = 1 + ($n * 7919) % 50_000;
    $asn->insert_network($network,
        { autonomous_system_number => $number, autonomous_system_organization => "Benchmark Networks $number Ltd" });
    $country->insert_network($network, $countries[ $n % @countries ]);
    $n++;
};
for my $a (1 .. 223) {
    for my $b (0 .. 255) { $insert->("$a.$b.$_.0/18") for 0, 64, 128, 192; }
}
$insert->(sprintf '2%03x:%x::/32', $_ >> 8, $_ & 0xff) for 0 .. 65_535;
for ([ $asn, 'asn.mmdb' ], [ $country, 'country.mmdb' ]) {
    my ($tree, $file) = @$_;
    open my $fh, '>:raw', "$dir/$file" or die "$dir/$file: $!\n";
    $tree->write_tree($fh);
    close $fh or die "$dir/$file: $!\n";
}
print "gen-geoip.pl: $n networks in $dir/asn.mmdb and $dir/country.mmdb\n";
