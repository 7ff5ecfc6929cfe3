import Foundation

/// Compressed bodies made by real compressors (GNU gzip, Python's zlib and gzip modules, and
/// DemoServer's encoder, run outside the tests since ClientTests cannot import DemoServer), for
/// ``InflaterTests``. The contents they decompress to are rebuilt here by `orderLog(lines:)` and
/// `demoServerContent`, which match what the generating scripts wrote.
enum InflaterFixtures {
    /// Lines like `7: GET /orders/433 HTTP/1.1 -> 200 (7 ms)`, numbered from 0; Python:
    /// `"".join(f"{i}: GET /orders/{i*7919%1000} HTTP/1.1 -> 200 ({i%13} ms)\n" for i in range(n))`.
    static func orderLog(lines: Int) -> [UInt8] {
        Array((0..<lines).map { "\($0): GET /orders/\($0 * 7919 % 1000) HTTP/1.1 -> 200 (\($0 % 13) ms)\n" }.joined().utf8)
    }

    /// What `demoServer` holds: a long run of one byte, every byte value once, a run of a byte
    /// whose fixed code has 9 bits.
    static var demoServerContent: [UInt8] {
        Array("{\"orders\": [".utf8) + [UInt8](repeating: 0x30, count: 200_000) + (0...255).map { UInt8($0) }
            + [UInt8](repeating: 0xc8, count: 1000) + Array("]}\n".utf8)
    }

    /// `gzip -9 -c orders.log` (GNU gzip; FNAME set, dynamic Huffman blocks) of `orderLog(lines: 300)`.
    static let gzipCommandLine = decoded("""
        H4sICEdiB2sCA29yZGVycy5sb2cAfdqxjiRFEIRhn6dYEwy4ysisyioMPAQmxj0CmAjp7v0lpL3Zk+bvjvHLaG3EbGZ/XePX
        tz9+//z26b8vf//z5eun8fbn589/fYpf4u3n3940xtuP4+3frz/9EM/nTpzryXg/qeeTO/f1pN5P5vPJnn09me8n6/nk6nU9
        We8n5/PJeeb15Hw/uXAy6npyvZ/s55OVeT3Z7yf388mcup7c7yfP80l1XE+eb3/58Xw0zk1I8UgJMcW4i+lbToGgdJNTfAsq
        kNSptj1BVHstV5RAVr2na0ogrB7lqhJIayldVwJxzZIrSyCvWuHaIuSVe7i6CHHpHNcXMa3YrjBCWpFtCyPENZftixDX6WkL
        I+S1T7nCCHntSPufBXl1yhVGyGvNcIVJ5DV7uMIk8qp9XGESedXYrjCJvFLtCpOIS7VcYRJxxZquMMm0yvYlkVbauiTCOpKt
        Sx4+QLi6FNLqNVxdKjg1jqtLiWNj21GUnBvt6lLFwbFcXWpyckxXl1ocHeXqUs3Rka4uhbgi5OpSSCvD1mUirTOHLcwMTo5j
        CzPF0bFdYSa3jNGuMJNrhpYrzOSeUdMVZi6OjrLLC39dO11hJleNIVeYyV1D4QqzuGvUcIVZwZ+M68sSB8e2hVnJwdG2MIur
        RixbmMVdI6crzFocHeUKs5qjI11hFvKqI1eYxV0jwhWmuWvkcIVp7hp17L4rjo7tCtPMq11fmj8uV5fmnqFp69KXyVW2Lt2c
        HGnr0khrbbm6NDeNEa4um5uGhqvL5qaRx9Vli6Nju7rs5OhoV5ddHB3L1WVz04hp34+QV5ary25OjnSF2ZsdlC3MRlp9whbm
        cNWIYQtzuGvouMIc7hq1XWFOcnS0K8wpjo7lCnO4a4zpCnO4a6hcYQ53jUpXmMNfl1xfDuI6O1xhYnDXGMO/UnPXuOWMxxvt
        4LJxJxofL9UjOT3av1YPvn3ducbHU0wOkGlfrAdXjjvb+HgG7hx3uvF4tR4ITne+8Xi3Hogu7oTj8XIdl+hcdYLCcVx1gr5x
        7oDj0R0Cx74Djkd3KBx9KxwfHjM5SKbvDpVj3SnHR3foHPPOOT6egsvHHXR8PAS3+zvpeDwDqUN31PHoDq0j7qzj0R1iR9xh
        x6M71I477Hh0h9hx7rTj0R5qx77Tjkd7qB19px2P9pA7+pY7HrkRPNYdeHznPAQ378jjO+ghuWovv1SP3NZ+g+yRw+pv0D0k
        679B+IiyAhyUj2UJOCgfZ1sEDtLHGZaBg/ixZSE4iB9dnoKpH2u9sGD6x+wXGEwBqfOCg2kgFS88mItJehCmgmh6ESaDRHsS
        poMcT8IXB/EkTAc5aU04CCF7WhQOQkgvq8JBCFnbsnBQQtbwLhy0kCkvw0ENqfI0HPSQXNaGgyCinf5rApeTYXU4SCIhy8NB
        EynLw0ETOdP6cFBFdlsgDqpIHyvEQRXpsEQcVJGV1oiDLDKnV+IgjFR7KA7SSB4vxbEu+GipOKgjSmvFQR6JslgcffnR+Y9R
        /HK2rRYHheQMy8VBJNmyXhxEki4LxkEkWcuKcRBJ5rZkHFSSOTwaB52k5NU4KCWZno2DVqJp3TiIJdEWjoNaciwcx0VLLBwH
        teRk+U+Z/Iw2LR0HwaTb2nEQTNaxeBwEkxVWj4NgMmX9OCgmVR6Qg2aSywtyUE20PSEH3UTDGnIQTkIWkeNc7hfY8lBOzrKK
        HLSTvS0ji3ayh3Vk0U46jv8Uzv+UaSVZlJM5rSWLcFJtOVmEkzzek0U5yfCgLNKJ0ouyaCcxLSmLdtKWlHWhk2NNWRc7GRaV
        RT3Zsqos6kmXZWVRT9ayriziydzT36TgejIsLYt0UrK2LNJJlsdl0U60vC6LeBLb87KoJ8fysi54YnlZtJOT1pdFPNnTArOI
        J91WmEU8WccSs4gnK6wxi3Yy0yqzSCc1LTOLcpI9/EUcfnPbnplFOtHwzCzaScgzs4gnZZVZtJOzrDLrcm1kW2UW8WQPq8wi
        nrSsMot4ssoqs4gnc1lmFu2k2kKzSCd5LDSLcpJhoVmUE+V6cY/rslZ6aFZd3gh8eS52cqwzi3hywjqzqCc7rTOLetLTOrOo
        J2tZZxb1ZG7rzKKezGGhWcSTkoVm0U6yLDSLdKJloVmkk9gemkU7iaEX9wA55eLFPUCuJ2WdWdSTPf0dY+pJt3VmUU/Wsc4s
        6skK68yinsy00CzqSU0LzSKeZFtoFu1Ex0Kz1iU3C80inUR6aBbtpLwzi3ZylndmXW6X7PbXSLmfDOvMop60rDOLerLKOrOo
        J3NZaBb1pLaVZlFPavjbx8STlL9+TDtR+vvHpJOY/gIy6aRfXEC+0Ml5cQWZeHLixR1k8slOfwmZfNLzxS1kfpVrfw2ZfDKP
        hWaRT2ZYaRb5pGSlWeSTLCvNop5oWWkW8SS2lWbRTmJYadbl0omHZtFOTnloFvVkLw/NIp/0ttD8P7cHXkZEMwAA
        """)

    /// A gzip member with FEXTRA, FNAME, FCOMMENT and FHCRC (header made by hand, body by zlib) of `orderLog(lines: 50)`.
    static let gzipAllFlags = decoded("""
        H4sIHgDxU2UCAwgAQnQEAGJhdCFvcmRlcnMuanNvbgBtYWRlIGJ5IGhhbmQgZm9yIHRoZSB0ZXN0cwDhc23VO04EMRCE4ZxT
        OIQA1v3wi4AMQUiwR4AQIe3eX0JyO3G58j9ozVczk1/Tx/s1Xf5u3z+3+yWnz+v16yIvkp7fkuacHnP6vT89yN4NGWcps9S9
        7NbPUmdpe9lKO0ubpe9lbfUsfZZlL8soZ1lmWaEUP8s6y7aXbnaWbZZ9L63oWfZZjr3UJmc54snnPZVBkGQpAZNkxhROAlBK
        nCSgBKSGE6l1AVD1SqjWAWDVOrFaBwBWywQrpiKgVZVoxVYEuIoTrhiLgJdX4hVrUfCyTrxiLgpcOghX7EVRSwhXDEZBS4xo
        rcEocBWmtd5r4BqNcK3BKHj1QbzWBeDVhXitC8CrGfFaB4BXLcQrBmPgVRrxisEYeHknXjEYAy/PxCsGY+BlSrxiMAZc6sQr
        BmPAJZVwxWAMtQjW2ouBFrMKLAOsoQRrzcUGHkC04gAHrVbZ1zBS0KqNaMUBDlplEK31KwKtIkQr5uKg5Ua0Yi4OWlaIVszF
        QUsb4Yq5OGjJIF4xFwcuEcIVc3HQMoK15vIPHN1ebl4IAAA=
        """)

    /// Python's `zlib.compress(_, 9)` of `orderLog(lines: 400)`.
    static let zlibDynamic = decoded("""
        eNp93LGOJbkNheHcT9GhHdgr8lCi5MCZYYcO5hHs0DCw+/6AgZ7bC/SvOjdnUBieO6S+UvX468c//v7j45f//frv//z62y/j
        458/fvzrl/hLfPz5bx85xscfx8d/f/vTH+J73YlzV8ZnZX6v3Np3ZX5W6ntlz74r9VlZ3ytXr7uyPivn98p55l05PysXKqPu
        yvVZ2d8rS7or+7Nyf6/UzLtyf1ae75XZcVeen//y43tpnIcmxatLaFOMpzb97FOgUfnQp/jZqECnTrXNCVq113JBCfSq93RJ
        CTSrR7moBLq1Ui4rgXbNSheWQL9qhUtLol/aw8Ul0a48x+Ul2a3YLjCJboXaBibRrrlsXhLtOj1tYBL92qdcYBL92iH7Pwv6
        1UoXmES/1gwXGKFfs4cLjNCv2scFRuhXje0CI/RL2S4wQruylguM0K5Y0wVG7FbZvAjdko2L0KyTaeOiwwcIF5dCt3oNF5cK
        To3j4lLJsbHtKBLnRru4VHFwLBeXmpwc08WlFkdHubhUc3TIxaXQroh0cSl0S2HjMtGtM4cNzAxOjmMDM5OjY7vATG4Zo11g
        JteMXC4wk3tGTReYuTg6yi4v/HVtucBMrhojXWAmd40MF5jFXaOGC8wK/mRcXlZycGwbmCUOjraBWVw1YtnALO4ami4wa3F0
        lAvMao4OucAs9KtOusAs7hoRLjDNXUPDBaa5a9Sx+25ydGwXmGa/2uWl+eNycWnuGTltXPqaXGXj0s3JIRuXRrfWTheX5qYx
        wsVlc9PI4eKyuWnouLjs5OjYLi5bHB3t4rKLo2O5uGxuGjHt+Qj9Urm47ObkkAvM3sxg2sBsdKtP2MAcrhoxbGAOd408LjCH
        u0ZtF5gjjo52gTnF0bFcYA53jTFdYA53jSwXmMNdo+QCc/jrSpeXg3adHS4wMbhrjOGP1Nw1HjnjdaIdXDaeROPrUD3E6dH+
        WD14+npyja+nmBwg0x6sB1eOJ9v4egbuHE+68TpaDzQun3zjdbYeaF08CcfrcB1X61x0gsJxXHSCvnGegOOVHQLHfgKOV3Yo
        HP0oHF8eMzlIps8OlWM9KcdXdugc88k5vp6Cy8cTdHw9BLf7J+l4PQOpI5+o45UdWkc8WccrO8SOeMKOV3aoHU/Y8coOseM8
        accrPdSO/aQdr/RQO/pJO17pIXf0I3e8+kbwWE/g8TvnoXHziTx+Bz10rtrLL9VD29pvkD00rP4G3SPT+m8QPqKsAAflY1kC
        DsrH2RaBg/RxhmXgIH7stBAcxI8uT8HUj7XeWDD9Y/YbDKaA1HnDwTSQijcezMVEHoSpIDm9CJNBoj0J00GOJ+HLQTwJ00GO
        rAkHIWRPi8JBCOllVTgIIWtbFg5KyBrehYMWMtPLcFBDqjwNBz1Ey9pwEERyy79N4HIyrA4HSSTS8nDQRMrycNBEzrQ+HFSR
        3RaIgyrSxwpxUEU6LBEHVWTJGnGQReb0ShyEkWoPxUEa0fFSHOvCR0vFQR1JWSsO8kiUxeLo60fnX0bxzdm2WhwUkjMsFweR
        ZKf14iCSdFkwDiLJWlaMg0gytyXjoJLM4dE46CSVXo2DUiJ5Ng5aSU7rxkEsibZwHNSSY+E4Li2xcBzUkqPyrzL5Gm1aOg6C
        Sbe14yCYrGPxOAgmK6weB8FkpvXjoJhUeUAOmomWF+SgmuT2hBx0kxzWkINwEmkROc51v8CGh3JyllXkoJ3sbRk5aSd7WEdO
        2knH8a/C+T+lrCQn5WROa8lJOKm2nJyEEx3vyUk5UXhQTtJJyoty0k5iWlJO2klbUs6LTo415bzsZFhUTurJTqvKST3psqyc
        1JO1rCsn8WTu6W9ScD0ZlpaTdFJpbTlJJyqPy0k7yeV1OYknsT0vJ/XkWF7OC08sLyft5Mj6chJP9rTAnMSTbivMSTxZxxJz
        Ek9WWGNO2smUVeYkndS0zJyUE/XwF3H4zm17Zk7SSQ7PzEk7ifTMnMSTssqctJOzrDLndW1kW2VO4skeVpmTeNJplTmJJ6us
        MifxZC7LzEk7qbbQnKQTHQvNSTlRWGhOyklqvbnHda2VHpqzrhOBD89lJ8c6cxJPTlhnTurJlnXmpJ70tM6c1JO1rDMn9WRu
        68xJPZnDQnMSTyotNCftRGWhOUknuSw0J+kktofmpJ3EyDf3ADnl4s09QK4nZZ05qSd7+jvG1JNu68xJPVnHOnNST1ZYZ07q
        yZSF5qSe1LTQnMQTtYXmpJ3ksdCc6+qbheYknYQ8NCftpLwzJ+3kLO/Med0u2e2vkXI/GdaZk3rSaZ05qSerrDMn9WQuC81J
        PaltpTmpJzX87WPiidJfP6adpPz9Y9JJTH8BmXTSby4gX3Ry3lxBJp6ceHMHmXyy5S8hk096vrmFzLdy7a8hk0/msdCc5JMZ
        VpqTfFJppTnJJyorzUk9yWWlOYknsa00J+0khpXmvC6deGhO2skpD81JPdnLQ3OST3pbaBb5pIeFZpFPVlhoFvlkavtb7Hwn
        N600i3yittIs8kkeK82inmRYaRbxJGSlWbSTaaFZpJPTHppFPNnHQ7OoJ3t4aBb5pNNCs8gnqyw0K67vNaw0i3xS21KzyCc1
        yn8Ewf0kLTWLfJJlqVnUk1iWmpUXWNrw3HRipVm0kxNemkU92fLSLPJJTy/Nop+sttIs+sk8VppFP5lhqVn0k5KlZtFPNC01
        i36SbalZ9JPYx39Ew/1kWGrWdfPESrNoJ6esNIt4speXZlFPentpFvmkh5dm6bpeaaVZ9JNZlppFP6llqVn0E7WlZtFP8lhq
        Fv0kw1Kz6CchS80in8zpP8HiW7m20iziyT5WmkU82eGlWdSTlpdmkU/W9NIs+slclppFP6ltrVn0kxrWmkU/UVprFv0ky1qz
        6CexrDWLfrItNeu6eWKzQzo5aaFZpJNdw3/Ax3dy00OzaCerPTSLeDKPh2ZRT2ZYaRb1pGSlWdQTTSvNop5kW2kW9SSOlWZR
        TyKsNOv6LMdCs2gnpyw0i3ayl4VmkU56W2gW6aTHevMBKHeT9NAs4sksL82intSy0izqibaVZlFPNKw0i3qSaaVZ1JOQlWbt
        S5pteIgnpy00i3iyj4Vm0U52WGgW6aRloVmkkzU9NIt2MjvffEFM9jrx5hNibidhpVnUE6WVZlFPsvzfs6CexLLSrHP9oQQb
        HuKJZWaRTk5aZhbpZJdlZlFOellmFuFkbcvM/wdQCGvs
        """)

    /// Raw deflate with the fixed codes only (zlib, `Z_FIXED`) of `orderLog(lines: 100)`.
    static let rawFixed = decoded("""
        M7BScHcNUdDPL0pJLSrWN1DwCAkJ0DfUM1TQtVMwMjBQ0DBQyC3W5DJEVWdpaImp0hCs0ghVpYWxBaZKI7BKY1SV5qbmmCqN
        wSpNUFWamZthqjQBqzRFVWlqaYqp0hSs0gxNpaEJpkozsEpzVJUmxsaYKs3BKi1QVRqbGmGqtACrtERVaWRuiKnSEhLyBqhK
        DS2xRJIhNJbQosnQAFs0QeLJEC2ijLDEkyEkogzRYsrSBEtMQV2AFlUWZliiCuoAtLgyt8ASV1AHoEWWuQGWyIIkFUO02DIz
        whJbkLRiiBZdpiZYoguSWAzR4svEDEt8QVKLEVp8GVtgiS9IcjFCiy4jSyzRBUkvRuixZYgluiAJxggttgyNscQWNMEYoUWX
        KbbYguZrtOiyNMcSXdAEY4QWXxaWWOIL6gK0+LIwxBJfUBegxZe5MZb4gjoALb7MTLHEFyTBGKPFl6k5lviCJBhjtPgyscAS
        X5AEY4wWXyYGWOILkmCM0eLL2AhLfEESjDFadBmZYIkvSIIxRosuQzMs0QVJMMbosYUlsqDpxRgttrDFFSSyjNEiy9IIS2RB
        k4uxJboDsMQWxAEmaLFlboatNIQoRYstM3MssQVxgAlabJlaYoktaFWEFlumhlhiC5JcTNBiy8QYS2xBkosJWmwZm2KJLUhy
        MUGLLSNzLNEFSS4maLFlaIklviDJxQQtugwNsUQXJLmYoMWWMZbIgiYXU7TYsjTFFluQ6DJFiy4LM2x1FyS+TNHiy9wCS3xB
        nYDeyjDAVhpClKI3M4ywxBfUAejtDBMs8QVJMKZo8WVihiW+oI0X9NxlgSW+IAnGFL2pYYAlviAJxhS9rWGEJcIgCcYMva1h
        giW+IAnGzBA9y+BKL2ZokWVpjq2lAYktM7TYsrDEFluQ6DJDb2oYYqu8IPFlht7WMMYSX1AnoMWXmSm24hCiFC2+TM2xxBfU
        AWjxZWKJJb4gCcYMva1hiCW+IAnGHL2tYYwlviAJxhy9rWGCJcKg7V20CDM0wxJhkARjjh5fWKILkl7M0TMXruRijt7OMMLW
        zoDElTlGzYUtriCRZY4WWeZm2CovSGyZo8WWmQWW2II6Ab2lYYCtOIT0DtBbGkZYYgviAAv0loYxltiCJBcLtNgyNsUSW5Dk
        YoEWW0bmWKILklws0KLL0BJLhEGSiwV6S8MQS4RB+0do8WWMJbogycUCLbYsTbHEFiTBWFigp0FsLQ1IbFmgxZa5JbbYgkSX
        JXpTwxBb5QWJL0v0toYRlviCOMESva1hgq04hChFiy8TMyzxBXUAWnwZW2CJL0iCsURvaxhgiS9IgrFEb2sYYYkwSIKxRG9r
        mGCJMEiCsUTPXVjiC5JeLNGiy9ICS3RBEgwA
        """)

    /// Raw deflate at level 0 with full flushes: stored blocks, empty ones among them, of `orderLog(lines: 12)`.
    static let rawStored = decoded("""
        AKkAVv8wOiBHRVQgL29yZGVycy8wIEhUVFAvMS4xIC0+IDIwMCAoMCBtcykKMTogR0VUIC9vcmRlcnMvOTE5IEhUVFAvMS4x
        IC0+IDIwMCAoMSBtcykKMjogR0VUIC9vcmRlcnMvODM4IEhUVFAvMS4xIC0+IDIwMCAoMiBtcykKMzogR0VUIC9vcmRlcnMv
        NzU3IEhUVFAvMS4xIC0+IDIwMCAoMyBtcykKNDogAAAA//8AqQBW/0dFVCAvb3JkZXJzLzY3NiBIVFRQLzEuMSAtPiAyMDAg
        KDQgbXMpCjU6IEdFVCAvb3JkZXJzLzU5NSBIVFRQLzEuMSAtPiAyMDAgKDUgbXMpCjY6IEdFVCAvb3JkZXJzLzUxNCBIVFRQ
        LzEuMSAtPiAyMDAgKDYgbXMpCjc6IEdFVCAvb3JkZXJzLzQzMyBIVFRQLzEuMSAtPiAyMDAgKDcgbXMpCjg6IEcAAAD//wCo
        AFf/RVQgL29yZGVycy8zNTIgSFRUUC8xLjEgLT4gMjAwICg4IG1zKQo5OiBHRVQgL29yZGVycy8yNzEgSFRUUC8xLjEgLT4g
        MjAwICg5IG1zKQoxMDogR0VUIC9vcmRlcnMvMTkwIEhUVFAvMS4xIC0+IDIwMCAoMTAgbXMpCjExOiBHRVQgL29yZGVycy8x
        MDkgSFRUUC8xLjEgLT4gMjAwICgxMSBtcykKAAAA//8BAAD//w==
        """)

    /// Raw deflate at level 9 with `memLevel` 1: many small blocks, of `orderLog(lines: 400)`.
    static let rawManyBlocks = decoded("""
        bNE7DgIxDADRnlO4hAJiO3E+FHQISoocAUqEtHt/Ccm7jeP0r5rBKzzuHcJveX+WNSA8e38FuhCcb8CIcET4rqcDWdeoeUkq
        2coaq5esMlpZpHgZVSYrc8leJpVipTTxUlTmQVLyMqssVqYYvSwqq5VR2MuqslnJhbxsW3m0lNpkEu2Xhk2Es03bJxpG8eTT
        n446twEYCGIY2NJJ+/ffmANnAlTDEMQPBZG6HNuJUG23CwViNVuuFAjWvHSpQLSa4VqBcFXSxQLxyoarheIV+1wuFC7euV6o
        WlgXDEULMTYYCle17YXCdVM2GIrXXrpgKF6LsGcRrwm6YCheXXDBhHjVPBdMiFfuuWBCvPKtCybEKzgumBAufnTWwQkAMQwD
        wZZiW3Iu/Td2/wV1ENCEtTaBGcxV6wRmuJail8FaE7kMxnrdkcs8PqASF2GtuydxUbEaL3FRMxtfTNGwGzdxkRiOTVxklsOJ
        i5bpUOKiy3RM4iLMVdWJi7DWVORirPV8IhgXy/EiGDfT8SUw5pVxbgJjnhm9CYx5Z8gJjJfpUDxe+Lu+SWDMU+N0AmPeGv3T
        WQdHEMQgDARTMuCVcP6J3V9XEwNNaYrAKFvjHgKjypchL+ocjkUwmhwOIxhlapQQjLI15iMwUk7HJTByTscQGMW97msCo2yN
        KgLjbI05BMbZGvdh73ZOxxIY571MXpzPRVycndEfcvHfcl3kYudyDHJxXEvbxMVZGqeIy2Zp9CEum6Uxj7hs53QscdnJ6TBx
        2ZvTIeKyWRr1/egwlyOIQhiGtZTwWeL+G3sXuGjjDpixmMi2/Qh5zeVwqcPLMR0wVWRwWGAKaR2lBUZUjQwLjOgaQw4Y0TVW
        OWA0eTqOA0aLp+PngBFdI7YDRnSNsRwwomus6YARf9dwvAhxqdIBk0HXiPCVmq7Rzhm30QZlo1s0XqmOyetxfK0Otq9u13iv
        2Dwg2xbroHJ028Z7A52jWzdutQ4EN7p943brQHTZLRy3XOdfdA6d5MIhh05y31A3cFx2OHB8fNjBDcAgDATBlnIEMPTfWD4m
        j9WZDix5JVuzHHBkOxSOsMJxPGbwkIy6HSrHdMpx2qFzDOccZwo+Hw46zhD87p105AykjuaoI9uhdchZR7ZD7JDDjmyH2uGw
        I9shdmynHVkPtWM57ch6qB3htCPrIXeE5Y7cG8FjOvD4OQ+LG448ftDD5nrU8kv1eFdpvyJ7vE+pv6J7tFb6rwgf6qUAi/Ix
        SwIW5WOvEoFF+thPycAifqxWQrCIH9FrCqZ+zHmxYPrHiAsGU0D6vnAwDaTr4sEfXXZwBEEIAzEwpR2MMeSf2P11pSxULYZJ
        OQhTQVa7CJNBMk7CdJDnJPznIE7CdJBXasIhhNxWFA4hZI6qcAgh5yoLhxJyPnfh0EJ6uQyHGrK303DoIXXUhkMQWbf8JjBO
        PtXhkESylIdDE9nKw6GJvFYfDlXkjgJxqCLzVIhDFZkoEYcqckqNOGSRblfiEEb2OBSHNFLPpTjnDx+VikMdWaVWHPJItmLx
        j047NwIghmEY2JIhv+q/sct5gx7EZCHub3Qeo7KcPdViUkh6KBeTSPJKvZhEkrsUjEkkOUfFmESS/ZSMSSXZw9GYdJJVrsak
        lMzpbExaSW11YxJLuArHpJa0wjE/LVE4JrWk5/KUmRltKx2TYHKv2jEJJqcVj0kwOagek2CyS/2YFJO1HJBJM5nHBZlUk3pO
        yKSb1FBDJuGEUkSmf/8FejwpJ31UkfnotKMbAEIgBKIt6ai3a/+N3T9mmiDkQdpJtzIyaSc91JFJO6l5fQrPpFwqyaScnKOW
        TMLJLuVkEk7WdU8m5WRNB2WSTlguyqSdzKOkTNpJKSnz0MlVU+axk6GoTOpJo6pM6kltZWVST75PXZnEk9PHnxRZT4bSMkkn
        G7Vlkk7Wdlwm7YTPdZnEk9nOy6SeXOVlHjxRXibt5C71ZRJP+igwk3hSpcLMz6cdXEEUglAMbekbFLX/xmb/PJkeWMAliSd9
        lZhJPOmhxkzaySpVZpJO5lJmJuWk9uchTv7cjjMzSSd8zsyknQycmUk8marMpJ3cVmXmyUaOKjOJJ+dTZSbxZKPKTOJJT1Vm
        Ek9WKzOTdjK3QjNJJ3UVmkk5qaHQTMoJ1X86rmetdGhmPheBD89jJ1edmcSTO9SZST05pc5M6sle6syknnSrM5N6so46Mz8+
        7eAGYBAGgmBLsBhD+m8s/40uNfjh02itJ3tEaMZ4UkRoxnayKkIzphM6QjOmk3kzNGM7mYOfDtBfbv50gJ4nFZ0Z68nduTG2
        npwTnRnrST/RmbGe9IzOjPVkrwjNWE9qR2jGeLJOhGZsJzwRmunP3SI0YzqZK0MztpPKzozt5OnszHzqkntyRup9MqIzYz05
        RGfGetIVnRnrye4IzVhP6kZpxnpSI9fHxpOXTzu4AhCGYRi6ErEb0u6/GHfx3DW+ZOX9mHYi5/+YdFKdB2TSyVwG5B+dnMuC
        TDw5dXmQySfbeUImn0xfLmRWuckbMvmkT4RmkU+6ojSLfLIUpVnkE68ozaKe6I3SLOJJ7SjNop3UE6VZv+kkQ7NoJ2dlaBb1
        ZL8ZmkU+mR2h2eSTeSI0m3zyVoRmk0/aO1/sbHIdpdnkE0+UZpNPdKI0m3qiitJs4kk5SrNpJx2h+aPbDm4ACGEgBrZ04ACh
        /8buv8g95LEaxSSd3OPQTOJJX4dmUk/6c2gm+eRMhWaST3YpNDOeXkOlmeSTaqVmkk/qK48gcp9MpWaST2YpNZN6MrZSM/MB
        Sz2el05Umkk7ucOlmdSTxqWZ5JOzXJpJP9lHpZn0k3VVmkk/WUOpmfSTQqmZ9BOWUjPpJ/MoNZN+Mvp6RJP75FNq5vk8UWkm
        7eSWSjOJJ71dmvnptnMjAGIgBIIpSZpdPfkndj5XkwNWA6kn57o0k3xyhksz/OaVKs2kn3QpNZN+UlupmfQTjlIz6SfrKTWT
        frKmUjPpJxOlZpJPuv2Cla3cUWkm8eQ+lWYST+50aSb15ODSTPLJbpdm0k96KzWTflJXrZn0kxpqzaSfsNSaST9ZpdZM+snc
        as2kn1ylZn7LE81O0slbCs0kndwafuDLTq4dmkk72cehmY9vO7gBGARiINhSYIE7+m8s/42cHvywRlrjyb4ZmrGe7BGlGevJ
        Ikoz1hN2lGasJ7OiNGM9GTdKM9aTMaI088lyIjRjO7krQjO2kz4RmjGdVEdoxnRSz/kJQP1NZoZmjCd7ZWnGerJOlGasJ3SU
        ZqwnPFGasZ7MGaUZ68kgSjP9keY4HuPJrQjNGE/6RmjGdtIjQjOmkyJCM6aTszM0YzvZNX8KYrPXffu4gxsAQhgGgjUlRgH6
        b+z+e1p68MMaya7HhJjtpFSaQz1JqzSHetLL/yyoJzUqzbm/owQND/FEmTmkk9vKzCGdnKXMHMrJHmXmEE7mKDN/
        """)

    /// Two gzip members one after the other (`gzip -9 -c`, twice): "first member\n", then `orderLog(lines: 20)`.
    static let concatenated = decoded("""
        H4sICEdiB2sCA2ZpcnN0LnR4dABLyywqLlHITc1NSi3iAgCn9IUKDQAAAB+LCAhHYgdrAgNzZWNvbmQudHh0AHXSMQ4CMQxE
        0Z5TpIQCNuMkdkJBh6Ck2CNAiZCW+0tIWRrbm/5V8yeew+06h+mzPF/Ld4rhPs+PCSeE4yVQjGEfw/t72EG7huYluiQta6pe
        UpdJSyniZeoya8nCXuYui5alFS9Ll2wkspfcpWiZU/JSuqxapkJe1i6bliTwsq3LR03RNiLhX8lkQtzKtHaCCUUbnbCGginV
        sgx/YlJV5tFRYFpJLaOnwMSSmEdXganFlEZfgclVMo3OAtMrM0Zv+QFMAvo2UgMAAA==
        """)

    /// Python's `gzip.compress(_, mtime=0)` of `orderLog(lines: 200)`.
    static let pythonGzip = decoded("""
        H4sIAAAAAAACA33ava4cVRAE4Jyn2BAC8Kn+PU1AhiAk8CNAiJDs95eQ1rOWtubUzTsYuWrcPd/e9evjj98/Pz799+Xvf758
        /bQef37+/Ncn/ILHz789bK3Hj+vx79effsD73GDuk3hO2vvk9n2ftOekv0929n3Sn5PxPlld98l4Tub7ZE7eJ/M5WTSJuE/W
        c7LfJ8P9PtnPyf0+6Wn3yf2cnPdJa9wn59u//HofxRxCwpUSxYR1iulbTqCg7JATvgUFSmqiZU8oql2ligLKqneqpoDC6hWq
        KqC0ylx1BRRXhqmygPKKgmqLUV6+l6qLUVw2o/pinBa2KoxRWvCWhTGKK0v2xSiu6ZSFMcprT6jCGOW14fJ/Fsqr3VRhjPKq
        hCqMU17ZSxXGKa/YowrjlFesrQrjlJdbq8I4xWVRqjBOcaFSFcY5rZB9cUrLZV2cwhozWRcffgCougSl1bVUXQK8NUbVJYzX
        xparyHlvtKpLBC+OUnWJ5M2Rqi5RvDpC1SWaV4erugTFBZiqS1BaDlmXpLQmlyxMgjfHyMKk8erYqjDJV8ZqVZjkM8NKFSb5
        zohUhcni1RHyeOG3a7sqTPKpsUwVJvnWMKjCFN8asVRhCvzKqL6U8eLYsjDlvDhaFqb41EDJwhTfGp6qMFW8OkIVpppXh6vC
        FOUVY6owxbcGoArTfGv4UoVpvjVi5L1rvDq2KkxzXq360vxyqbo03xmWsi5921wh69LNm8NlXZrSqm2qLs2XxoKqy+ZLw5aq
        y+ZLw0fVZRuvjq3qsp1XR6u67ODVUaoumy8NpPw+orw8VF128+ZwVZi9uYMmC7MprR7IwgyfGliyMMO3ho0qzPCtEVsVZpxX
        R6vCTPDqKFWY4VtjpSrM8K1hoQozfGuEq8IMv12m+jIU12yowmDxrbGW/qTmW+PIGdcX7eJj4yQar4/q5bw9Wn9WL/76OrnG
        6ymSF0jKD+vFJ8fJNl7PwDfHSTeuT+tFwdnJN65v60XR4SQc18c1btGp6oCFY1R1wL4xJ+C4usPAsU/AcXWHhaOPwvHymORF
        kro7rBx1Uo5Xd9g58uQcr6fg4+MEHa+H4Ov+JB3XMzB12Ik6ru6wdeBkHVd3GDtwwo6rO6wdJ+y4usPYMSftuNrD2rFP2nG1
        h7WjT9pxtYe5o4/cceXG4FEn8PjOeRRcnsjjO+hRctFaflk9fEv7BbOHL6m/YPcwk/4Lhg+EFGCwfJQkYLB8zJYIDKaPWZKB
        wfixTUIwGD86NAWzflR9YMHsH9kfYDALSMwHHMwGEvjAg/kwcQ3CrCCWWoSZQdCahNlBRpPwzUE0CbODjEsTBkPITonCYAjp
        kioMhpDakoXBElJLuzDYQtK0DIM1JELTMNhDvKQNg0HEtutfE/g4WVKHwSQCkzwMNpGQPAw2kUnpw2AV2S2BGKwiPVKIwSrS
        kEQMVpFyacRgFsnUSgyGkWgNxWAa8dFSjLrho6RisI6YSysG8whCYjH69tLpH6P4l7MttRgsJLMkF4ORZJv0YjCSdEgwBiNJ
        lRRjMJLklmQMVpJcGo3BThKm1RgsJe6ajcFWYindGIwlaAnHYC0ZCce4aYmEY7CWjIf+KZN/RktJx2Aw6ZZ2DAaTGonHYDAp
        SD0Gg0ma9GOwmERoQAabiZcWZLCa2NaEDHYTW9KQwXACk4iMuf19gSwPy8mUVGSwnewtGfl/45EDPQUiAAA=
        """)

    /// Python's `gzip.compress(b"", mtime=0)`: a member with no content.
    static let emptyGzip = decoded("""
        H4sIAAAAAAACAwMAAAAAAAAAAAA=
        """)

    /// DemoServer's own encoder (`Gzip.compress`, fixed codes, runs as matches at distance 1) of `demoServerContent`.
    static let demoServer = decoded("""
        H4sIAAAAAAAA/6tWyi9KSS0qVrJSiDYYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNgFIyCUTAK
        RsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNg
        FIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApG
        wSgYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AU
        jIJRMApGwSgYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbB
        KBgFo2AUjIJRMApGwSgYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNgFIyCUTAKRsEoGAWjYBSM
        glEwCkbBKBgFo2AUjIJRMApGwSgYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNgFIyCUTAKRsEo
        GAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNgFIyC
        UTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgY
        BaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJR
        MApGwSgYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgF
        o2AUjIJRMApGwSgYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNgFIyCUTAKRsEoGAWjYBSMglEw
        CkbBKBgFo2AUjIJRMApGwSgYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNgFIyCUTAKRsEoGAWj
        YBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNgFIyCUTAK
        RsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNg
        FIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApG
        wSgYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AU
        jIJRMApGwSgYBaNgFIyCUTAKRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMApGwSgYBaNgFIyCUTAKRoGBgYGBgYGBgYGBgYGB
        gYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYGBgYEBAyMTMwsrGzsHJxc3Dy8fv4CgkLCIqJi4hKSUtIysnLyCopKy
        iqqauoamlraOrp6+gaGRsYmpmbmFpZW1ja2dvYOjk7OLq5u7h6eXt4+vn39AYFBwSGhYeERkVHRMbFx8QmJSckpqWnpGZlZ2
        Tm5efkFhUXFJaVl5RWVVdU1tXX1DY1NzS2tbe0dnV3dPb1//hImTJk+ZOm36jJmzZs+ZO2/+goWLFi9Zumz5ipWrVq9Zu279
        ho2bNm/Zum37jp27du/Zu2//gYOHDh85euz4iZOnTp85e+78hYuXLl+5eu36jZu3bt+5e+/+g4ePHj95+uz5i5evXr95++79
        h4+fPn/5+u37j5+/fv/5++//iVEwCkbBiRMnTpw4ceLEiRMnTpw4ceLEiRMnTpw4ceLEiRMnTpw4ceLEiRMnTpw4ceLEiRMn
        Tpw4ceLEiRMnTpw4ceLEiRMnTpw4ceLEiRMnTpw4ceLEiRMnTpw4ceLEiRMnTpw4ceLEiRMnTpw4ceLEiRMnTpw4ceLEiRMn
        Tpw4ceLEiRMnTpw4ceLEiRMnTpw4ceLEiRMnTpw4ceLEiRMnTpw4ceLEiRMnTpw4ceLEiRMnTpw4ceLEiRMnTpw4ceLEiRMn
        Tpw4ceLEiRMnTpw4ceLEiRMnTpw4ceLEiRMnTpw4ceLEiRMnTpw4ceLEiRMnTpw4ceLEiRMnTpw4ceLEidhaLgClNQ3lNxID
        AA==
        """)

    private static func decoded(_ base64: String) -> [UInt8] {
        [UInt8](Data(base64Encoded: base64, options: .ignoreUnknownCharacters) ?? Data())
    }
}
