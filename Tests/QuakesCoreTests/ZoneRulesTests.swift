import Foundation
import Testing

@testable import QuakesCore

/// The zones quakes reads from the system's database and POSIX rules, against Foundation's
/// `TimeZone` (ICU, with its own copy of the database), which the tests still link.
@Suite(.disabled(if: SuiteMode.isThreadSanitized, "one thread")) struct ZoneRulesTests {
    /// Zones with daylight time north and south, half and quarter hours, a half-hour daylight
    /// shift (Lord Howe), rules changed in living memory, and none at all.
    static let zones = [
        "America/Los_Angeles", "America/New_York", "America/St_Johns", "America/Sao_Paulo", "Europe/London",
        "Europe/Paris", "Europe/Moscow", "Asia/Kolkata", "Asia/Kathmandu", "Asia/Tokyo", "Australia/Sydney",
        "Australia/Lord_Howe", "Pacific/Auckland", "Pacific/Chatham", "Africa/Johannesburg", "UTC",
    ]

    /// Every hour around each year's changes, 1970 to 2100: the file's transitions up to 2037, the
    /// footer's rule after (the rule is all that Debian's files hold past their last transition).
    @Test(arguments: zones)
    func offsetsAreFoundationsOwn(zone: String) throws {
        let ours = try #require(ZoneRules.named(zone))
        let theirs = try #require(TimeZone(identifier: zone))
        var random = SystemRandomNumberGenerator()
        var mismatches: [String] = []
        for year in Int64(1970)...2100 {
            let start = CivilTime.days(year: year, month: 1, day: 1) * 86_400
            for _ in 0..<200 {
                let seconds = start + Int64.random(in: 0..<(366 * 86_400), using: &random)
                let expected = theirs.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))
                if ours.offset(at: seconds) != Int32(expected), mismatches.count < 5 {
                    mismatches.append("\(seconds): \(ours.offset(at: seconds)) against \(expected)")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(zone)")
    }

    /// The second of each change, and the second before it, in two zones that change at 02:00
    /// local standard time and at 01:00 UTC.
    @Test func theOffsetChangesOnTheSecond() throws {
        let losAngeles = try #require(ZoneRules.named("America/Los_Angeles"))
        // 2021-03-14 10:00 UTC is 02:00 PST, when PDT begins; 2021-11-07 09:00 UTC is 02:00 PDT.
        #expect(losAngeles.offset(at: 1_615_715_999) == -8 * 3600)
        #expect(losAngeles.offset(at: 1_615_716_000) == -7 * 3600)
        #expect(losAngeles.offset(at: 1_636_275_599) == -7 * 3600)
        #expect(losAngeles.offset(at: 1_636_275_600) == -8 * 3600)
        // The same changes in 2090, from the footer's rule: 2090-03-12 and 2090-11-05.
        let spring = CivilTime.days(year: 2090, month: 3, day: 12) * 86_400 + 10 * 3600
        #expect(losAngeles.offset(at: spring - 1) == -8 * 3600)
        #expect(losAngeles.offset(at: spring) == -7 * 3600)
        let autumn = CivilTime.days(year: 2090, month: 11, day: 5) * 86_400 + 9 * 3600
        #expect(losAngeles.offset(at: autumn - 1) == -7 * 3600)
        #expect(losAngeles.offset(at: autumn) == -8 * 3600)
    }

    @Test func posixRulesAreReadAsTheCLibraryReadsThem() throws {
        // No daylight time; offsets written west of Greenwich, quoted names, minutes.
        #expect(PosixRule("UTC0")?.standardOffset == 0 && PosixRule("UTC0")?.daylight == nil)
        #expect(PosixRule("<+03>-3")?.standardOffset == Int32(3 * 3600))
        #expect(PosixRule("<+0545>-5:45")?.standardOffset == Int32(5 * 3600 + 45 * 60))
        #expect(PosixRule("IST-5:30")?.standardOffset == Int32(5 * 3600 + 30 * 60))
        // Southern daylight time wraps the new year: Sydney in January and July.
        let sydney = try #require(PosixRule("AEST-10AEDT,M10.1.0,M4.1.0/3"))
        let january = CivilTime.days(year: 2030, month: 1, day: 15) * 86_400
        let july = CivilTime.days(year: 2030, month: 7, day: 15) * 86_400
        #expect(sydney.offset(at: january) == 11 * 3600)
        #expect(sydney.offset(at: july) == 10 * 3600)
        // A daylight name without rules takes the United States' rules and an hour more.
        let eastern = try #require(PosixRule("EST5EDT"))
        #expect(eastern.offset(at: july) == -4 * 3600)
        #expect(eastern.offset(at: january) == -5 * 3600)
        // Julian days never count February 29; zero-based days do.
        let julian = try #require(PosixRule("AAA0BBB,J60/0,J300"))
        let zeroBased = try #require(PosixRule("AAA0BBB,59/0,300"))
        let march1 = CivilTime.days(year: 2028, month: 3, day: 1) * 86_400
        #expect(julian.offset(at: march1 - 1) == 0)
        #expect(julian.offset(at: march1) == 3600)
        // Day 59 of 2028 (counting from 0) is February 29.
        #expect(zeroBased.offset(at: march1 - 86_400) == 3600)
        #expect(zeroBased.offset(at: march1 - 86_401) == 0)
        for text in ["", "U", "UTC", "UTC+", "UTC0X", "EST5EDT,M3.2.0", "EST5EDT,M13.1.0,M11.1.0", "<AB>1"] {
            #expect(PosixRule(text) == nil, "\(text)")
        }
    }

    /// What `TZ` may hold: a name, a name after a colon, a path, a POSIX rule; and what it may not.
    @Test func zonesAreFoundByName() throws {
        let paris = try #require(ZoneRules.named("Europe/Paris"))
        #expect(ZoneRules.named(":Europe/Paris") == paris)
        #expect(ZoneRules.named("/usr/share/zoneinfo/Europe/Paris") == paris)
        let july = CivilTime.days(year: 2021, month: 7, day: 1) * 86_400
        #expect(ZoneRules.named("<+03>-3")?.offset(at: july) == Int32(3 * 3600))
        #expect(ZoneRules.named("Mars/Olympus_Mons") == nil)
        #expect(ZoneRules.named("") == nil)
        // Not a TZif file, and not a rule either.
        let folder = try TemporaryDirectory()
        #expect(ZoneRules.named(try folder.write("zone", "not a zone")) == nil)
        #expect(ZoneRules(tzif: Array("TZif2".utf8)) == nil)
        // A real zone file past a megabyte is no zone file, and is not read; nor is a device.
        let parisBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/Europe/Paris")))
        let paddedBytes = parisBytes + [UInt8](repeating: 0, count: 1 << 20)
        #expect(ZoneRules(tzif: paddedBytes) == paris)  // What the parser alone would accept.
        #expect(ZoneRules.named(try folder.write("padded", paddedBytes)) == nil)
        #expect(ZoneRules.named("/dev/zero") == nil)
        // Nor is a FIFO waited on until some writer opens it.
        let fifo = folder.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(ZoneRules.named(fifo) == nil)
    }

    /// UTC is a zone whose offset is zero at every moment, whatever it is called; one that is at
    /// zero today only, or in winter only, is not.
    @Test func utcIsAnOffsetOfZeroAtEveryMoment() throws {
        for name in ["Etc/UTC", "UTC", "Etc/UCT", "UCT", "Zulu", "Universal", "Etc/GMT", "GMT0", "UTC0", "<UTC>0"] {
            #expect(try #require(ZoneRules.named(name), "\(name)").isUTC, "\(name)")
        }
        #expect(ZoneRules.utc.isUTC)
        for name in ["Africa/Abidjan", "Europe/London", "Atlantic/Reykjavik", "Asia/Tokyo", "WET0WEST", "<+00>0<+01>"] {
            #expect(try #require(ZoneRules.named(name), "\(name)").isUTC == false, "\(name)")
        }
        // The display zone names every UTC `UTC`, the system's too when it is.
        #expect(DisplayZone(tz: "Etc/UTC").name == "UTC")
        #expect(DisplayZone(tz: ":Zulu").name == "UTC")
        #expect(DisplayZone(tz: "Africa/Abidjan").name == "Africa/Abidjan")
        if ZoneRules.system()?.zone.isUTC == true { #expect(DisplayZone(tz: nil).name == "UTC") }
    }

    /// `/etc/localtime`, named by its link into the database, else by `/etc/timezone`.
    @Test func theSystemZoneIsNamedByItsLink() throws {
        let folder = try TemporaryDirectory()
        let link = folder.file("localtime")
        #expect(symlink("/usr/share/zoneinfo/Asia/Tokyo", link) == 0)
        let linked = try #require(ZoneRules.system(localtime: link, timezoneFile: folder.file("none")))
        #expect(linked.name == "Asia/Tokyo")
        #expect(linked.zone == ZoneRules.named("Asia/Tokyo"))
        let copy = folder.file("copy")
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Asia/Tokyo", toPath: copy)
        try folder.write("timezone", "Asia/Tokyo\n")
        #expect(ZoneRules.system(localtime: copy, timezoneFile: folder.file("timezone"))?.name == "Asia/Tokyo")
        #expect(ZoneRules.system(localtime: copy, timezoneFile: folder.file("none"))?.name == "localtime")
        #expect(ZoneRules.system(localtime: folder.file("missing"), timezoneFile: folder.file("none")) == nil)
    }
}
