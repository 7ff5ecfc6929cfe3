/// Orders, reviews and the other read routes of the demo API.
extension DemoAPI {
    /// `GET /order_search?name=N`: orders whose name contains N (all of them when N is empty).
    func searchOrders(_ head: HTTPRequestHead) throws(Refusal) -> ServerResponse {
        guard let query = FormURLEncoded.decode(head.query) else { throw Refusal(400, "query is not valid form data") }
        let name = FormURLEncoded.value("name", in: query) ?? ""
        let orders = state.withLock { $0.data.orders }
        let matching = orders.filter { name.isEmpty || $0.name.contains(name) }
        return .json(200, .array(matching.map(\.json)))
    }

    func order(_ id: Int) throws(Refusal) -> ServerResponse {
        try found(state.withLock { state in state.data.orders.first { $0.id == id }?.json })
    }

    func review(_ id: Int) throws(Refusal) -> ServerResponse {
        try found(state.withLock { $0.data.reviews[id]?.json })
    }

    /// `POST /facilities/:facility_id/reviews` with `content` (a string) and `rating` (an integer
    /// from 1 to 5), as a form or as JSON; with an `Idempotency-Key`, once per key.
    func createReview(facilityID: Int, _ exchange: HTTPExchange, claim: IdempotencyClaim?) throws(Refusal) -> ServerResponse {
        try once(claim, base: ["POST", Route.createReview.pattern, String(facilityID)]) { () throws(Refusal) in
            let (content, rating) = try parseReview(facilityID: facilityID, exchange)
            return ((content, rating), [Array(content.utf8), Array(String(rating).utf8)])
        } commit: { (review: (content: String, rating: Int)) in
            let created = state.withLock { state in
                let created = DemoData.Review(
                    id: state.data.nextReviewID, facilityID: facilityID, content: review.content, rating: review.rating
                )
                state.data.nextReviewID += 1
                state.data.reviews[created.id] = created
                return created
            }
            return .json(201, created.json, headers: [("Location", "/reviews/\(created.id)")])
        }
    }

    /// A review's content and rating, checked; nothing is stored yet.
    private func parseReview(facilityID: Int, _ exchange: HTTPExchange) throws(Refusal) -> (content: String, rating: Int) {
        guard DemoData.facilities[facilityID] != nil else { throw Refusal(404, "not_found") }
        let content: String
        let rating: Int
        switch try readFields(exchange) {
        case .form(let pairs):
            guard let text = FormURLEncoded.value("content", in: pairs) else { throw Refusal(422, "content is missing") }
            guard let digits = FormURLEncoded.value("rating", in: pairs) else { throw Refusal(422, "rating is missing") }
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0.decimalDigitValue != nil }) else {
                throw Refusal(422, "rating must be an integer")
            }
            content = text
            // All digits but beyond Int: certainly out of range.
            rating = Int(digits) ?? Int.max
        case .json(let object):
            guard let field = object["content"] else { throw Refusal(422, "content is missing") }
            guard case .string(let text) = field else { throw Refusal(422, "content must be a string") }
            guard let ratingField = object["rating"] else { throw Refusal(422, "rating is missing") }
            guard case .integer(let number) = ratingField else { throw Refusal(422, "rating must be an integer") }
            content = text
            rating = number
        }
        guard (1...5).contains(rating) else { throw Refusal(422, "rating must be between 1 and 5") }
        return (content, rating)
    }
}
