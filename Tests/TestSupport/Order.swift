/// An order as the demo API sends it (`bikou` is the remarks field, 備考): the one model of it
/// that the client and integration tests share.
package struct Order: Codable, Equatable, Sendable {
    package var id: Int
    package var name: String
    package var ordersum: Int
    package var subtotal: Int
    package var bikou: String

    package init(id: Int, name: String, ordersum: Int, subtotal: Int, bikou: String) {
        self.id = id
        self.name = name
        self.ordersum = ordersum
        self.subtotal = subtotal
        self.bikou = bikou
    }
}
