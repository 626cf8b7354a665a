/// The part of a query an FDSN event service answers itself: magnitudes, a box or a circle, event
/// types, depths, a catalog and a contributor. What a backfill asks, what a sync keeps current, and,
/// as a `QuakeFilter`, how quakes tells whether a stored event is in that scope.
struct FDSNFilter: Sendable, Equatable {
    /// The filter's conditions that quakes can check itself (all but catalog and contributor).
    var scope = QuakeFilter()
    /// `--catalog`: the network whose solutions are asked for (ComCat's `catalog`).
    var catalog: String?
    /// `--contributor`: the network that contributed them (ComCat's `contributor`).
    var contributor: String?

    /// The filter's query parameters, in a fixed order, so that the same filter always makes the
    /// same URL (which names a backfill's plan).
    var parameters: [(name: String, value: String)] {
        var parameters: [(name: String, value: String)] = []
        func add(_ name: String, _ value: Double?) {
            if let value { parameters.append((name, FDSNService.number(value))) }
        }
        add("minmagnitude", scope.minimumMagnitude)
        add("maxmagnitude", scope.maximumMagnitude)
        if let box = scope.box {
            // ComCat takes a box across the date line as longitudes past 180.
            let maximum =
                box.maximumLongitude < box.minimumLongitude ? box.maximumLongitude + 360 : box.maximumLongitude
            add("minlatitude", box.minimumLatitude)
            add("maxlatitude", box.maximumLatitude)
            add("minlongitude", box.minimumLongitude)
            add("maxlongitude", maximum)
        }
        if let circle = scope.circle {
            add("latitude", circle.latitude)
            add("longitude", circle.longitude)
            add("maxradiuskm", circle.radius)
        }
        add("mindepth", scope.minimumDepth)
        add("maxdepth", scope.maximumDepth)
        if let type = scope.eventType { parameters.append(("eventtype", type)) }
        if let catalog { parameters.append(("catalog", catalog)) }
        if let contributor { parameters.append(("contributor", contributor)) }
        return parameters
    }

    /// Reads a filter back from its parameters (a recorded plan's), nil when one is not the filter's.
    init?(parameters: [(name: String, value: String)]) {
        var box: [String: Double] = [:]
        var circle: [String: Double] = [:]
        for (name, value) in parameters {
            let number = Double(value)
            switch name {
            case "minmagnitude": scope.minimumMagnitude = number
            case "maxmagnitude": scope.maximumMagnitude = number
            case "mindepth": scope.minimumDepth = number
            case "maxdepth": scope.maximumDepth = number
            case "minlatitude", "maxlatitude", "minlongitude", "maxlongitude": box[name] = number
            case "latitude", "longitude", "maxradiuskm": circle[name] = number
            case "eventtype": scope.eventType = value
            case "catalog": catalog = value
            case "contributor": contributor = value
            default: return nil
            }
        }
        if let minimumLatitude = box["minlatitude"], let maximumLatitude = box["maxlatitude"],
            let minimumLongitude = box["minlongitude"], let maximumLongitude = box["maxlongitude"]
        {
            scope.box = QuakeFilter.Box(
                minimumLongitude: minimumLongitude, minimumLatitude: minimumLatitude,
                maximumLongitude: maximumLongitude > 180 ? maximumLongitude - 360 : maximumLongitude,
                maximumLatitude: maximumLatitude)
        }
        if let latitude = circle["latitude"], let longitude = circle["longitude"], let radius = circle["maxradiuskm"] {
            scope.circle = QuakeFilter.Circle(latitude: latitude, longitude: longitude, radius: radius)
        }
    }

    init(scope: QuakeFilter = QuakeFilter(), catalog: String? = nil, contributor: String? = nil) {
        self.scope = scope
        self.catalog = catalog
        self.contributor = contributor
    }

    /// True when `quake` is in the scope as far as quakes can tell (catalog and contributor are the
    /// service's to judge).
    func contains(_ quake: Quake) -> Bool {
        QuerySemantics.matches(quake, scope)
    }

    /// The filter with its magnitude floor lowered by `margin`: what a sync asks, so that an event
    /// whose magnitude was revised a little below the floor still comes back and is updated.
    func widened(byMagnitude margin: Double) -> FDSNFilter {
        var widened = self
        widened.scope.minimumMagnitude = scope.minimumMagnitude.map { $0 - margin }
        return widened
    }
}
